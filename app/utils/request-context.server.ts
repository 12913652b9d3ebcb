import { AsyncLocalStorage } from 'node:async_hooks'

export type RequestContext = { requestId: string; clientIp: string }

// The custom server (server.js) opens this context around each request; a global symbol lets it and
// the compiled app share one store.
const KEY = Symbol.for('impact-narrative-studio.request-context')
const globals = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestContext> | undefined>

export const requestContextStorage = (globals[KEY] ??= new AsyncLocalStorage<RequestContext>())

export function getRequestContext(): RequestContext | undefined {
  return requestContextStorage.getStore()
}
