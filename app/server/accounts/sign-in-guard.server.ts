import { clientAddress, RateLimitError, rateLimitStore as store, refuseOver } from '~/server/edge/rate-limit.server'
import { enforceRateLimit, pairKey, RATE_LIMITS } from '~/server/edge/limits.server'
import { log } from '~/server/platform/logger.server'

const MINUTE = 60_000

/**
 * Guessing one account's password from many addresses is slowed, not blocked (decision 015): past
 * `freeFailures`, attempts from addresses the account has not signed in from go one at a time, a gap
 * that doubles with every failure apart. The owner, at an address they signed in from, is never held up.
 */
export const SIGN_IN_SLOWDOWN = {
  freeFailures: 5,
  windowMs: 15 * MINUTE,
  firstGapMs: 1000,
  maxGapMs: 60_000,
  maxWaitMs: 10_000,
  knownForMs: 30 * 24 * 60 * MINUTE,
}

const accountKey = (email: string) => `login:account:${email.toLowerCase()}`
const knownKey = (email: string) => `login:known:${email.toLowerCase()}:${clientAddress()}`

/** Every attempt counts as a failure until it succeeds, so simultaneous guesses are all counted before any is checked. */
export async function beforeSignIn(email: string) {
  await enforceRateLimit('login')
  const here = await store.count(pairKey('login', email), RATE_LIMITS.login.pair.windowMs)
  refuseOver('login', here, RATE_LIMITS.login.pair.limit, 'account')
  if (!(await store.peek(knownKey(email)))) await waitForTurn(email)
  await store.count(accountKey(email), SIGN_IN_SLOWDOWN.windowMs)
}

async function waitForTurn(email: string) {
  const failures = (await store.peek(accountKey(email)))?.count ?? 0
  const { freeFailures, firstGapMs, maxGapMs, maxWaitMs } = SIGN_IN_SLOWDOWN
  if (failures < freeFailures) return
  const gap = Math.min(firstGapMs * 2 ** (failures - freeFailures), maxGapMs)
  // An attempt that would wait too long is refused without taking a turn, so refusals cannot push
  // the queue back for whoever comes next.
  const wait = (await store.book(`login:turn:${email.toLowerCase()}`, gap, maxWaitMs)) - Date.now()
  if (wait > maxWaitMs) {
    log('warn', 'rate_limit.refused', { action: 'login', scope: 'slowdown', retryAfter: Math.ceil(wait / 1000) })
    throw new RateLimitError(Math.ceil(wait / 1000))
  }
  if (wait > 0) {
    log('warn', 'auth.login_slowed', { waitMs: wait, failures })
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

export async function signInSucceeded(email: string) {
  await store.count(accountKey(email), SIGN_IN_SLOWDOWN.windowMs, -1)
  await store.forget(pairKey('login', email))
  await store.count(knownKey(email), SIGN_IN_SLOWDOWN.knownForMs)
}
