import { getRequestContext } from '~/server/platform/request-context.server'
import { log } from '~/server/platform/logger.server'
import { RefusedError } from '~/server/platform/refused-error.server'
import { cluster } from '~/server/cluster/cluster.server'
import type { Counter, RateLimitStore } from '~/server/cluster/contract.server'

// How attempts are counted and refused; how often each feature may be used is in limits.server.ts.

export type RateLimitRule = { limit: number; windowMs: number }

// The topology's store (app/server/cluster/): this process's memory, or the table replicas share.
export const rateLimitStore: RateLimitStore = {
  count: (key, windowMs, by) => cluster().limits.count(key, windowMs, by),
  peek: (key) => cluster().limits.peek(key),
  forget: (key) => cluster().limits.forget(key),
  book: (key, gapMs, maxWaitMs) => cluster().limits.book(key, gapMs, maxWaitMs),
  clear: () => cluster().limits.clear(),
}

/** Counts one attempt under `key` in a window of `windowMs`, and returns the counter. */
export const countAttempt = (key: string, windowMs: number) => cluster().limits.count(key, windowMs)

export class RateLimitError extends RefusedError<429> {
  constructor(retryAfterSeconds: number, message = 'Too many attempts. Please wait a few minutes and try again.') {
    super(message, 429, retryAfterSeconds)
  }
}

/**
 * The client's address as the limits count it. One IPv6 subscriber is usually given a whole /64, so an
 * IPv6 address counts by its /64: otherwise one home could pose as countless addresses.
 */
export function clientAddress() {
  return limitedAddress(getRequestContext()?.clientIp ?? 'unknown')
}

export function limitedAddress(ip: string): string {
  const address = ip.replace(/%.*$/, '').toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (mapped) return mapped[1]
  if (!address.includes(':')) return address
  const [head, tail = ''] = address.split('::')
  const first = head ? head.split(':') : []
  const last = tail ? tail.split(':') : []
  const groups = address.includes('::') ? [...first, ...Array(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last] : first
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`
}

export function refuseOver(
  action: string,
  counter: Counter | null,
  limit: number,
  scope: string,
  message?: (retryAfterSeconds: number) => string,
) {
  if (!counter || counter.count <= limit) return
  const retryAfter = Math.max(1, Math.ceil((counter.resetAt - Date.now()) / 1000))
  log('warn', 'rate_limit.refused', { action, scope, retryAfter })
  throw new RateLimitError(retryAfter, message?.(retryAfter))
}

export function resetRateLimitsForTests() {
  cluster().limits.clear()
}

/** How many keys the store holds now. */
export async function rateLimitKeysForTests() {
  return cluster().limits.size()
}
