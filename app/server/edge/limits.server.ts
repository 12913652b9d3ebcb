import { getEnv } from '~/server/platform/env.server'
import { clientAddress, countAttempt, refuseOver, type RateLimitRule } from '~/server/edge/rate-limit.server'

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/**
 * Per client address, and per (account, address) where the request names an account: the endpoints
 * that guess or send mail. Keying the account limit on the address too means nobody can use up
 * another person's allowance. Sign-in counts only failures against `pair` (accounts/sign-in-guard).
 */
export const RATE_LIMITS = {
  login: { ip: { limit: 30, windowMs: MINUTE }, pair: { limit: 10, windowMs: 15 * MINUTE } },
  signup: { ip: { limit: 20, windowMs: 10 * MINUTE } },
  forgot: { ip: { limit: 10, windowMs: 15 * MINUTE }, pair: { limit: 3, windowMs: HOUR } },
  reset: { ip: { limit: 20, windowMs: 15 * MINUTE } },
  // The current password, asked on /account and /auth/profile before a sensitive change (decision 022);
  // the account is the signed-in user, and only wrong passwords stay counted.
  account: { ip: { limit: 30, windowMs: MINUTE }, pair: { limit: 10, windowMs: 15 * MINUTE } },
  // Each request mails an address nobody has confirmed: every one counts, right password or not.
  emailChange: { ip: { limit: 10, windowMs: HOUR }, pair: { limit: 3, windowMs: HOUR } },
} satisfies Record<string, { ip: RateLimitRule; pair?: RateLimitRule }>

export type RateLimitedAction = keyof typeof RATE_LIMITS

export function pairKey(action: RateLimitedAction, account: string) {
  return `${action}:pair:${account.toLowerCase()}:${clientAddress()}`
}

/**
 * Counts an attempt against the client's address and, when it passes, against the account asked
 * about from that address; throws RateLimitError when either is over. An address already refused
 * adds nothing more to remember.
 */
export async function enforceRateLimit(action: RateLimitedAction, account?: string) {
  const rules: { ip: RateLimitRule; pair?: RateLimitRule } = RATE_LIMITS[action]
  refuseOver(action, await countAttempt(`${action}:ip:${clientAddress()}`, rules.ip.windowMs), rules.ip.limit, 'address')
  if (account && rules.pair)
    refuseOver(action, await countAttempt(pairKey(action, account), rules.pair.windowMs), rules.pair.limit, 'account')
}

export async function enforceCreateRateLimit(userId: string) {
  refuseOver('create', await countAttempt(`create:user:${userId}`, MINUTE), getEnv().MAX_CREATES_PER_MINUTE, 'user')
}

/**
 * Text saves and restores one user may make in a minute. A person saves far less often, and edits
 * within minutes of each other are one version anyway: this bounds what a script can make the
 * history and the claims cost (2,000 saves of 20 KB took 14 s and 41 MB before it).
 */
export const EDITS_PER_MINUTE = 30

export async function enforceEditRateLimit(userId: string) {
  refuseOver('edit', await countAttempt(`edit:user:${userId}`, MINUTE), EDITS_PER_MINUTE, 'user')
}

/**
 * Evidence checks one user may ask for in a minute: the page asks as its owner types, a pause apart, so
 * a person never meets this; a script looping on the endpoint does. Each costs a few milliseconds.
 */
export const CHECKS_PER_MINUTE = 120
/** A model's second opinion costs a call to the provider: a handful an hour is what a person asks for. */
export const SECOND_OPINIONS_PER_HOUR = 10

export async function enforceCheckRateLimit(userId: string, { secondOpinion = false } = {}) {
  refuseOver('check', await countAttempt(`check:user:${userId}`, MINUTE), CHECKS_PER_MINUTE, 'user')
  if (secondOpinion) refuseOver('second-opinion', await countAttempt(`opinion:user:${userId}`, HOUR), SECOND_OPINIONS_PER_HOUR, 'user')
}

/**
 * Calls one user may have read in a minute (a file read in a worker, or a model asked): far more than a
 * person adds, few enough that a script cannot keep the readers or the model busy.
 */
export const CALL_READINGS_PER_MINUTE = 20

export async function enforceCallReadingRateLimit(userId: string) {
  refuseOver('readCall', await countAttempt(`readCall:user:${userId}`, MINUTE), CALL_READINGS_PER_MINUTE, 'user')
}

/**
 * Requests with a body one person (an account, or an address when signed out) may send in a minute,
 * counted before the body is read (decision 025): well above the 120 evidence checks a page may ask and
 * the saves around them, so only a script meets it; and twice the narratives an operator lets one person
 * create in a minute, so a bulk import through the API meets that limit first (MAX_CREATES_PER_MINUTE).
 */
export const BODIES_PER_MINUTE = 600

export async function enforceBodyRateLimit(person: string) {
  const limit = Math.max(BODIES_PER_MINUTE, 2 * getEnv().MAX_CREATES_PER_MINUTE)
  refuseOver('body', await countAttempt(`body:${person}`, MINUTE), limit, 'person')
}

/**
 * Word and PDF files one user may download in a minute, pages and API together: each is built anew (a
 * PDF of a long narrative takes a core for a while), and a person downloads a few.
 */
export const DOWNLOADS_PER_MINUTE = 30

export async function enforceDownloadRateLimit(userId: string) {
  refuseOver(
    'download',
    await countAttempt(`download:user:${userId}`, MINUTE),
    DOWNLOADS_PER_MINUTE,
    'user',
    (seconds) => `You have downloaded ${DOWNLOADS_PER_MINUTE} files in the last minute. Please wait ${seconds} seconds and try again.`,
  )
}
