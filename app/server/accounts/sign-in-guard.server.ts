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
 * longer than `maxWaitMs` is refused with the time to come back, and takes no turn. The owner, at an
 * address they signed in from before, is never held up.
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
 * Before a password is checked: the address's own limit, the limit on failures for this account from
 * this address, and the account's slowdown. Every attempt counts as a failure until it succeeds, so
 * guesses sent at the same moment are all counted before any is checked. Throws RateLimitError.
 */
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

/** A success takes its attempt back, clears this address's failures and makes the address known. */
export async function signInSucceeded(email: string) {
  await store.count(accountKey(email), SIGN_IN_SLOWDOWN.windowMs, -1)
  await store.forget(pairKey('login', email))
  await store.count(knownKey(email), SIGN_IN_SLOWDOWN.knownForMs)
}
