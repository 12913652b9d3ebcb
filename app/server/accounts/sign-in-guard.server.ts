import {
  clientAddress,
  enforceRateLimit,
  pairKey,
  RATE_LIMITS,
  RateLimitError,
  rateLimitStore as store,
  refuseOver,
} from '~/server/edge/rate-limit.server'
import { log } from '~/server/platform/logger.server'

const MINUTE = 60_000

/**
 * Guessing one account's password from many addresses is slowed, not blocked: past a few failures,
 * attempts on the account from addresses it has not signed in from are let through one at a time,
 * each `gap` after the last, a gap that doubles with every failure. An attempt that would wait
 * longer than `maxWaitMs` is refused with the time to come back. The owner, at an address they signed
 * in from before, is never held up.
 */
export const SIGN_IN_SLOWDOWN = {
  freeFailures: 5,
  windowMs: 15 * MINUTE,
  firstGapMs: 1000,
  maxGapMs: 60_000,
  maxWaitMs: 10_000,
  /** How long an address stays known after a successful sign-in. */
  knownForMs: 30 * 24 * 60 * MINUTE,
}

const accountKey = (email: string) => `login:account:${email.toLowerCase()}`
const knownKey = (email: string) => `login:known:${email.toLowerCase()}:${clientAddress()}`

/**
 * Before a password is checked: the address's own limit (every attempt counts), the limit on failures
 * for this account from this address, and the account's slowdown. Throws RateLimitError.
 */
export async function beforeSignIn(email: string) {
  await enforceRateLimit('login')
  const failuresHere = await store.peek(pairKey('login', email))
  if (failuresHere) refuseOver('login', { ...failuresHere, count: failuresHere.count + 1 }, RATE_LIMITS.login.pair.limit, 'account')
  if (!(await store.peek(knownKey(email)))) await waitForTurn(email)
}

async function waitForTurn(email: string) {
  const failures = (await store.peek(accountKey(email)))?.count ?? 0
  const { freeFailures, firstGapMs, maxGapMs, maxWaitMs } = SIGN_IN_SLOWDOWN
  if (failures < freeFailures) return
  const gap = Math.min(firstGapMs * 2 ** (failures - freeFailures), maxGapMs)
  const wait = (await store.book(`login:turn:${email.toLowerCase()}`, gap)) - Date.now()
  if (wait > maxWaitMs) {
    log('warn', 'rate_limit.refused', { action: 'login', scope: 'slowdown', retryAfter: Math.ceil(wait / 1000) })
    throw new RateLimitError(Math.ceil(wait / 1000))
  }
  if (wait > 0) {
    log('warn', 'auth.login_slowed', { waitMs: wait, failures })
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

export async function signInFailed(email: string) {
  await store.count(pairKey('login', email), RATE_LIMITS.login.pair.windowMs)
  await store.count(accountKey(email), SIGN_IN_SLOWDOWN.windowMs)
}

/** A success clears this address's failures and makes it known, so the slowdown passes it by. */
export async function signInSucceeded(email: string) {
  await store.forget(pairKey('login', email))
  await store.count(knownKey(email), SIGN_IN_SLOWDOWN.knownForMs)
}
