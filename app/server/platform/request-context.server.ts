import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks'
import crypto from 'node:crypto'
import type { RequestHandler } from 'express'

export type RequestContext = {
  requestId: string
  clientIp: string
  /** Memo of per-request lookups (the signed-in user), shared by the loaders of one request. */
  memo?: Map<string, Promise<unknown>>
  /** The answer carries a person's data or a new secret: sent with Cache-Control: no-store. */
  privateAnswer?: boolean
  /** Set by the HTTP server: runs `callback` once the answer has been sent (or the client has gone). */
  afterAnswer?: (callback: () => void) => void
}

const requestContextStorage = new AsyncLocalStorage<RequestContext>()

export function getRequestContext(): RequestContext | undefined {
  return requestContextStorage.getStore()
}

/** Runs `callback` inside a request's context: what jobs and tests use outside an HTTP request. */
export function runWithRequestContext<T>(context: RequestContext, callback: () => T): T {
  return requestContextStorage.run(context, callback)
}

/** Runs `callback` outside any request: a detached job must not log under the request that started it. */
export function runOutsideRequest<T>(callback: () => T): T {
  return requestContextStorage.exit(callback)
}

/**
 * Gives each request an id (sent back as X-Request-Id, and on every log line) and its client address,
 * as Express found it under TRUST_PROXY.
 */
export function requestContext(): RequestHandler {
  return (req, res, next) => {
    const requestId = crypto.randomUUID()
    res.set('X-Request-Id', requestId)
    // Bound, so the callback runs in this request's context (its log lines keep the request id).
    const afterAnswer = (callback: () => void) => void res.once('close', AsyncResource.bind(callback))
    requestContextStorage.run({ requestId, clientIp: req.ip ?? 'unknown', afterAnswer }, next)
  }
}

/** Runs `load` once per request for `key` (the root and route loaders of a page run together). */
export function memoizeForRequest<T>(key: string, load: () => Promise<T>): Promise<T> {
  const context = getRequestContext()
  if (!context) return load()
  context.memo ??= new Map()
  if (!context.memo.has(key)) context.memo.set(key, load())
  return context.memo.get(key) as Promise<T>
}
