import { getEnv } from '~/server/platform/env.server'
import { clientAddress, countAttempt, refuseOver, type RateLimitRule } from '~/server/edge/rate-limit.server'

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/**
 * Per address, and per (account, address) so nobody can use up another person's allowance, for the
 * endpoints that guess or send mail. Sign-in counts only failures against `pair` (accounts/sign-in-guard).
 */
export const RATE_LIMITS = {
  login: { ip: { limit: 30, windowMs: MINUTE }, pair: { limit: 10, windowMs: 15 * MINUTE } },
  signup: { ip: { limit: 20, windowMs: 10 * MINUTE } },
  forgot: { ip: { limit: 10, windowMs: 15 * MINUTE }, pair: { limit: 3, windowMs: HOUR } },
  reset: { ip: { limit: 20, windowMs: 15 * MINUTE } },
  // The current password before a sensitive change (decision 022): only wrong ones stay counted.
  account: { ip: { limit: 30, windowMs: MINUTE }, pair: { limit: 10, windowMs: 15 * MINUTE } },
  // Each request mails an address nobody has confirmed: every one counts, right password or not.
  emailChange: { ip: { limit: 10, windowMs: HOUR }, pair: { limit: 3, windowMs: HOUR } },
} satisfies Record<string, { ip: RateLimitRule; pair?: RateLimitRule }>

export type RateLimitedAction = keyof typeof RATE_LIMITS

export function pairKey(action: RateLimitedAction, account: string) {
  return `${action}:pair:${account.toLowerCase()}:${clientAddress()}`
}

/** Counts the address, then (if it passes) the account from it; throws RateLimitError when either is over. */
export async function enforceRateLimit(action: RateLimitedAction, account?: string) {
  const rules: { ip: RateLimitRule; pair?: RateLimitRule } = RATE_LIMITS[action]
  refuseOver(action, await countAttempt(`${action}:ip:${clientAddress()}`, rules.ip.windowMs), rules.ip.limit, 'address')
  if (account && rules.pair)
    refuseOver(action, await countAttempt(pairKey(action, account), rules.pair.windowMs), rules.pair.limit, 'account')
}

export async function enforceCreateRateLimit(userId: string) {
  refuseOver('create', await countAttempt(`create:user:${userId}`, MINUTE), getEnv().MAX_CREATES_PER_MINUTE, 'user')
}

/** Text saves and restores a user may make in a minute: bounds what a script costs the history (docs/security.md). */
export const EDITS_PER_MINUTE = 30

export async function enforceEditRateLimit(userId: string) {
  refuseOver('edit', await countAttempt(`edit:user:${userId}`, MINUTE), EDITS_PER_MINUTE, 'user')
}

/** Evidence checks a user may ask for in a minute: the page asks as its owner types, so only a script meets it. */
export const CHECKS_PER_MINUTE = 120
/** A model's second opinion costs a call to the provider: a handful an hour is what a person asks for. */
export const SECOND_OPINIONS_PER_HOUR = 10

export async function enforceCheckRateLimit(userId: string, { secondOpinion = false } = {}) {
  refuseOver('check', await countAttempt(`check:user:${userId}`, MINUTE), CHECKS_PER_MINUTE, 'user')
  if (secondOpinion) refuseOver('second-opinion', await countAttempt(`opinion:user:${userId}`, HOUR), SECOND_OPINIONS_PER_HOUR, 'user')
}

/** Calls a user may have read in a minute: few enough that a script cannot keep the readers or the model busy. */
export const CALL_READINGS_PER_MINUTE = 20

export async function enforceCallReadingRateLimit(userId: string) {
  refuseOver('readCall', await countAttempt(`readCall:user:${userId}`, MINUTE), CALL_READINGS_PER_MINUTE, 'user')
}

/**
 * Requests with a body a person (account, else address) may send in a minute, counted before the body is
 * read (decision 025): above the 120 evidence checks a page may ask, and twice MAX_CREATES_PER_MINUTE.
 */
export const BODIES_PER_MINUTE = 600

export async function enforceBodyRateLimit(person: string) {
  const limit = Math.max(BODIES_PER_MINUTE, 2 * getEnv().MAX_CREATES_PER_MINUTE)
  refuseOver('body', await countAttempt(`body:${person}`, MINUTE), limit, 'person')
}

/** Readings of a person's calendar in an hour: a calendar polls every few minutes at the most (decision 052). */
export const CALENDAR_READINGS_PER_HOUR = 60

export async function enforceCalendarRateLimit(userId: string) {
  refuseOver('calendar', await countAttempt(`calendar:user:${userId}`, HOUR), CALENDAR_READINGS_PER_HOUR, 'user')
}

/** Word and PDF files a user may download in a minute (MAX_DOWNLOADS_PER_MINUTE), pages and API together: each is built anew. */
export async function enforceDownloadRateLimit(userId: string) {
  const { MAX_DOWNLOADS_PER_MINUTE } = getEnv()
  refuseOver(
    'download',
    await countAttempt(`download:user:${userId}`, MINUTE),
    MAX_DOWNLOADS_PER_MINUTE,
    'user',
    (seconds) => `You have downloaded ${MAX_DOWNLOADS_PER_MINUTE} files in the last minute. Please wait ${seconds} seconds and try again.`,
  )
}
