import { AsyncLocalStorage } from 'node:async_hooks'

export type RequestContext = {
  requestId: string
  clientIp: string
  /** Memo of per-request lookups (the signed-in user), shared by the loaders of one request. */
  memo?: Map<string, Promise<unknown>>
}

// The custom server (server.js) opens this context around each request; a global symbol lets it and
// the compiled app share one store.
const KEY = Symbol.for('impact-narrative-studio.request-context')
const globals = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestContext> | undefined>

export const requestContextStorage = (globals[KEY] ??= new AsyncLocalStorage<RequestContext>())

export function getRequestContext(): RequestContext | undefined {
  return requestContextStorage.getStore()
}

/** Runs `load` once per request for `key` (the root and route loaders of a page run together). */
export function memoizeForRequest<T>(key: string, load: () => Promise<T>): Promise<T> {
  const context = getRequestContext()
  if (!context) return load()
  context.memo ??= new Map()
  if (!context.memo.has(key)) context.memo.set(key, load())
  return context.memo.get(key) as Promise<T>
}
