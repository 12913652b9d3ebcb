import type { HeadersFunction } from 'react-router'
import { dataWithError } from '~/server/accounts/session.server'
import { getRequestContext } from '~/server/platform/request-context.server'
import { log } from '~/server/platform/logger.server'
import { getEnv } from '~/server/platform/env.server'
import { RefusedError } from '~/server/platform/refused-error.server'
import { dialect, prisma } from '~/server/platform/db.server'
import { createMemoryStore, createTableStore, type Counter, type RateLimitStore } from '~/server/edge/rate-limit-stores.server'

export type RateLimitRule = { limit: number; windowMs: number }

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

// The one place the store is chosen.
const memory = dialect === 'postgres' ? null : createMemoryStore()
const store: RateLimitStore = memory ?? createTableStore()
export const rateLimitStore: RateLimitStore = store

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

export function pairKey(action: RateLimitedAction, account: string) {
  return `${action}:pair:${account.toLowerCase()}:${clientAddress()}`
}

export function refuseOver(
  action: RateLimitedAction | 'create' | 'edit' | 'check' | 'second-opinion' | 'readCall' | 'body' | 'download',
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

/**
 * Counts an attempt against the client's address and, when it passes, against the account asked
 * about from that address; throws RateLimitError when either is over. An address already refused
 * adds nothing more to remember.
 */
export async function enforceRateLimit(action: RateLimitedAction, account?: string) {
  const rules: { ip: RateLimitRule; pair?: RateLimitRule } = RATE_LIMITS[action]
  refuseOver(action, await store.count(`${action}:ip:${clientAddress()}`, rules.ip.windowMs), rules.ip.limit, 'address')
  if (account && rules.pair)
    refuseOver(action, await store.count(pairKey(action, account), rules.pair.windowMs), rules.pair.limit, 'account')
}

export async function enforceCreateRateLimit(userId: string) {
  refuseOver('create', await store.count(`create:user:${userId}`, MINUTE), getEnv().MAX_CREATES_PER_MINUTE, 'user')
}

/**
 * Text saves and restores one user may make in a minute. A person saves far less often, and edits
 * within minutes of each other are one version anyway: this bounds what a script can make the
 * history and the claims cost (2,000 saves of 20 KB took 14 s and 41 MB before it).
 */
export const EDITS_PER_MINUTE = 30

export async function enforceEditRateLimit(userId: string) {
  refuseOver('edit', await store.count(`edit:user:${userId}`, MINUTE), EDITS_PER_MINUTE, 'user')
}

/**
 * Evidence checks one user may ask for in a minute: the page asks as its owner types, a pause apart, so
 * a person never meets this; a script looping on the endpoint does. Each costs a few milliseconds.
 */
export const CHECKS_PER_MINUTE = 120
/** A model's second opinion costs a call to the provider: a handful an hour is what a person asks for. */
export const SECOND_OPINIONS_PER_HOUR = 10

export async function enforceCheckRateLimit(userId: string, { secondOpinion = false } = {}) {
  refuseOver('check', await store.count(`check:user:${userId}`, MINUTE), CHECKS_PER_MINUTE, 'user')
  if (secondOpinion) refuseOver('second-opinion', await store.count(`opinion:user:${userId}`, HOUR), SECOND_OPINIONS_PER_HOUR, 'user')
}

/**
 * Calls one user may have read in a minute (a file read in a worker, or a model asked): far more than a
 * person adds, few enough that a script cannot keep the readers or the model busy.
 */
export const CALL_READINGS_PER_MINUTE = 20

export async function enforceCallReadingRateLimit(userId: string) {
  refuseOver('readCall', await store.count(`readCall:user:${userId}`, MINUTE), CALL_READINGS_PER_MINUTE, 'user')
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
  refuseOver('body', await store.count(`body:${person}`, MINUTE), limit, 'person')
}

/**
 * Word and PDF files one user may download in a minute, pages and API together: each is built anew (a
 * PDF of a long narrative takes a core for a while), and a person downloads a few.
 */
export const DOWNLOADS_PER_MINUTE = 30

export async function enforceDownloadRateLimit(userId: string) {
  refuseOver(
    'download',
    await store.count(`download:user:${userId}`, MINUTE),
    DOWNLOADS_PER_MINUTE,
    'user',
    (seconds) => `You have downloaded ${DOWNLOADS_PER_MINUTE} files in the last minute. Please wait ${seconds} seconds and try again.`,
  )
}

export function resetRateLimitsForTests() {
  store.clear()
}

/** How many keys the store holds now. */
export async function rateLimitKeysForTests() {
  return memory ? memory.size() : prisma.rateLimit.count()
}

/**
 * The `headers` of a page whose action may answer rateLimitedPage: a page's answer carries only the
 * headers this returns (and cookies), so the action's Retry-After reaches the client.
 */
export const rateLimitedPageHeaders: HeadersFunction = ({ actionHeaders }) => actionHeaders

export function rateLimitedPage<T extends object>(data: T, error: RateLimitError) {
  return dataWithError(data, error.message, { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } })
}

/**
 * A page action's step that a rate limit may refuse: its value, or, refused, the page's 429 answer
 * carrying `reply(message)` as its data. Any other error goes on.
 */
export async function unlessRateLimited<T, D extends object>(step: () => Promise<T>, reply: (message: string) => D) {
  try {
    return { value: await step(), refused: null }
  } catch (error) {
    if (!(error instanceof RateLimitError)) throw error
    return { value: null, refused: rateLimitedPage(reply(error.message), error) }
  }
}
