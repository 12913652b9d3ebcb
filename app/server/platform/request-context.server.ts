import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks'
import crypto from 'node:crypto'
import type { RequestHandler } from 'express'

export type RequestContext = {
  requestId: string
  clientIp: string
  memo?: Map<string, Promise<unknown>>
  privateAnswer?: boolean
  /** Runs `callback` once the answer has been sent, or the client has gone. */
  afterAnswer?: (callback: () => void) => void
}

const requestContextStorage = new AsyncLocalStorage<RequestContext>()

export function getRequestContext(): RequestContext | undefined {
  return requestContextStorage.getStore()
}

export function runWithRequestContext<T>(context: RequestContext, callback: () => T): T {
  return requestContextStorage.run(context, callback)
}

/** A detached job must not log under the request that started it. */
export function runOutsideRequest<T>(callback: () => T): T {
  return requestContextStorage.exit(callback)
}

export function requestContext(): RequestHandler {
  return (req, res, next) => {
    const requestId = crypto.randomUUID()
    res.set('X-Request-Id', requestId)
    // Bound, so the callback runs in this request's context (its log lines keep the request id).
    const afterAnswer = (callback: () => void) => void res.once('close', AsyncResource.bind(callback))
    requestContextStorage.run({ requestId, clientIp: req.ip ?? 'unknown', afterAnswer }, next)
  }
}

/** The root and route loaders of a page run together, and would each look the user up. */
export function memoizeForRequest<T>(key: string, load: () => Promise<T>): Promise<T> {
  const context = getRequestContext()
  if (!context) return load()
  context.memo ??= new Map()
  if (!context.memo.has(key)) context.memo.set(key, load())
  return context.memo.get(key) as Promise<T>
}
