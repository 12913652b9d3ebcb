import { dataWithError } from '~/server/accounts/session.server'
import { getRequestContext } from '~/server/platform/request-context.server'
import { log } from '~/server/platform/logger.server'

export type RateLimitRule = { limit: number; windowMs: number }

const MINUTE = 60_000

// Per client address, and per account where the request names one: the endpoints that guess or send mail.
export const RATE_LIMITS: Record<'login' | 'signup' | 'forgot' | 'reset', { ip: RateLimitRule; account?: RateLimitRule }> = {
  login: { ip: { limit: 30, windowMs: MINUTE }, account: { limit: 10, windowMs: 15 * MINUTE } },
  signup: { ip: { limit: 20, windowMs: 10 * MINUTE } },
  forgot: { ip: { limit: 10, windowMs: 15 * MINUTE }, account: { limit: 3, windowMs: 60 * MINUTE } },
  reset: { ip: { limit: 20, windowMs: 15 * MINUTE } },
}

export type RateLimitedAction = keyof typeof RATE_LIMITS

/**
 * Where attempts are counted. This process's memory suits one server; several replicas behind one
 * address need a shared store (a PostgreSQL table, say) whose hit() counts atomically across them,
 * so that no replica lets through what another already refused.
 */
export interface RateLimitStore {
  /** Counts one attempt under `key` in a fixed window: the seconds to wait when over the limit, or 0. */
  hit(key: string, rule: RateLimitRule): Promise<number>
  clear(): void
}

function createMemoryStore(): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>()
  const prune = (now: number) => {
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key)
  }
  return {
    async hit(key, { limit, windowMs }) {
      const now = Date.now()
      let window = windows.get(key)
      if (!window || window.resetAt <= now) {
        if (windows.size > 50_000) prune(now)
        window = { count: 0, resetAt: now + windowMs }
        windows.set(key, window)
      }
      window.count += 1
      return window.count > limit ? Math.ceil((window.resetAt - now) / 1000) : 0
    },
    clear: () => windows.clear(),
  }
}

// The one place the store is chosen.
const store: RateLimitStore = createMemoryStore()

export class RateLimitError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many attempts. Please wait a few minutes and try again.')
  }
}

/** Counts an attempt against the client's address and the account; throws RateLimitError when over. */
export async function enforceRateLimit(action: RateLimitedAction, account?: string) {
  const rules = RATE_LIMITS[action]
  const ip = getRequestContext()?.clientIp ?? 'unknown'
  let wait = await store.hit(`${action}:ip:${ip}`, rules.ip)
  if (account && rules.account) wait = Math.max(wait, await store.hit(`${action}:account:${account.toLowerCase()}`, rules.account))
  if (wait > 0) {
    log('warn', 'rate_limit.refused', { action, retryAfter: wait })
    throw new RateLimitError(wait)
  }
}

export function resetRateLimitsForTests() {
  store.clear()
}

/** A page action's answer to RateLimitError: its data, a 429 with Retry-After, and an error toast. */
export function rateLimitedPage<T>(data: T, error: RateLimitError) {
  return dataWithError(data, error.message, { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } })
}
