import { action as loginApi } from '~/routes/auth/login'
import { action as forgotApi } from '~/routes/auth/forgot-password'
import { action as loginPage } from '~/routes/public/login'
import { action as forgotPage } from '~/routes/public/forgot-password'
import { runWithRequestContext } from '~/server/platform/request-context.server'
import { createMemoryStore, MEMORY_STORE_MAX_KEYS } from '~/server/cluster/single.server'
import { limitedAddress, RateLimitError, rateLimitKeysForTests } from '~/server/edge/rate-limit.server'
import { enforceRateLimit, RATE_LIMITS } from '~/server/edge/limits.server'
import { SIGN_IN_SLOWDOWN } from '~/server/accounts/sign-in-guard.server'
import { RESET_MAILS_PER_ACCOUNT } from '~/server/accounts/password-reset.server'
import { settlePendingMail } from '~/server/accounts/email.server'
import { prisma } from '~/server/platform/db.server'
import { resetDatabase } from '../setup/db'
import { call, formRequest, jsonRequest } from '../setup/requests'
import { makeUser, PASSWORD } from '../setup/users'

beforeEach(resetDatabase)

const fromIp = <T>(clientIp: string, fn: () => Promise<T>) => runWithRequestContext({ requestId: 'test', clientIp }, fn)

const apiLogin = (ip: string, email: string, password: string) =>
  fromIp(ip, () => call(loginApi, jsonRequest('/auth/login', { email, password })))
const pageLogin = (ip: string, email: string, password: string) =>
  fromIp(ip, () => call(loginPage, formRequest('/login', { email, password })))
const apiForgot = (ip: string, email: string) => fromIp(ip, () => call(forgotApi, jsonRequest('/auth/forgot-password', { email })))

async function mailsTo(email: string) {
  await settlePendingMail()
  return globalThis.smtpSink.messages.filter((m) => m.to.includes(email)).length
}

describe('sign-in', () => {
  it('lets the owner in from their own address, on the page and the API, after guesses from elsewhere', async () => {
    await makeUser({ email: 'owner@example.org' })
    expect((await apiLogin('198.51.100.1', 'owner@example.org', PASSWORD)).status).toBe(200)
    // Guesses spread over many addresses, and a full allowance of them from one.
    for (let i = 0; i < SIGN_IN_SLOWDOWN.freeFailures; i++)
      expect((await apiLogin(`10.0.0.${i}`, 'owner@example.org', 'wrong guess')).status).toBe(401)
    // The owner's address is known: no slowdown at all. A slowed attempt says so in the log as it waits
    // (app/server/accounts/sign-in-guard.server.ts); unslowed, the second would wait a gap after the first.
    const warnings: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void warnings.push(line))
    try {
      expect((await apiLogin('198.51.100.1', 'owner@example.org', PASSWORD)).status).toBe(200)
      expect((await pageLogin('198.51.100.1', 'owner@example.org', PASSWORD)).status).toBe(302)
    } finally {
      spy.mockRestore()
    }
    expect(warnings.filter((line) => line.includes('"event":"auth.login_slowed"'))).toEqual([])
  })

  it('does not count successful sign-ins against any limit', async () => {
    await makeUser({ email: 'busy@example.org' })
    for (let i = 0; i < RATE_LIMITS.login.pair.limit + 5; i++) {
      expect((await apiLogin('198.51.100.2', 'busy@example.org', PASSWORD)).status).toBe(200)
    }
  })

  it('refuses an address past its failures on one account, with 429 and Retry-After, even with the right password', async () => {
    await makeUser({ email: 'target@example.org' })
    // From an address the account signed in from, so the slowdown stays out of the way.
    await apiLogin('192.0.2.9', 'target@example.org', PASSWORD)
    for (let i = 0; i < RATE_LIMITS.login.pair.limit; i++)
      expect((await apiLogin('192.0.2.9', 'target@example.org', 'wrong guess')).status).toBe(401)
    const refused = await apiLogin('192.0.2.9', 'target@example.org', PASSWORD)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(refused.body.error).toMatch(/Too many attempts/)
    // Another address, with the right password, is not refused by that address's failures.
    expect((await apiLogin('192.0.2.10', 'target@example.org', PASSWORD)).status).not.toBe(429)
  })

  it('slows guessing spread over many addresses by delays that grow, without blocking the account', async () => {
    await makeUser({ email: 'spread@example.org' })
    for (let i = 0; i < SIGN_IN_SLOWDOWN.freeFailures; i++) await apiLogin(`10.2.0.${i}`, 'spread@example.org', 'wrong guess')
    const attempt = async (ip: string) => {
      const startedAt = Date.now()
      expect((await apiLogin(ip, 'spread@example.org', 'wrong guess')).status).toBe(401)
      return { startedAt, endedAt: Date.now() }
    }
    // Past the free failures, each attempt takes its turn a gap after the last one's turn, the gap
    // doubling each time. A turn falls between an attempt's sending and its answer, so from one
    // attempt's sending to the next one's answer at least the gap passes, however busy the machine.
    const first = await attempt('10.2.1.1')
    const second = await attempt('10.2.1.2')
    expect(second.endedAt - first.startedAt).toBeGreaterThanOrEqual(SIGN_IN_SLOWDOWN.firstGapMs)
    const third = await attempt('10.2.1.3')
    expect(third.endedAt - second.startedAt).toBeGreaterThanOrEqual(2 * SIGN_IN_SLOWDOWN.firstGapMs)
    // Attempts that would queue for longer than the longest wait are told when to come back.
    const queued = await Promise.all(Array.from({ length: 4 }, (_, i) => apiLogin(`10.2.2.${i}`, 'spread@example.org', 'wrong guess')))
    const refused = queued.filter((answer) => answer.status === 429)
    expect(refused.length).toBeGreaterThan(0)
    expect(Number(refused[0].headers.get('Retry-After'))).toBeGreaterThan(SIGN_IN_SLOWDOWN.maxWaitMs / 1000)
  }, 30_000)

  it('counts guesses sent at the same moment before checking any of them', async () => {
    await makeUser({ email: 'burst@example.org' })
    await apiLogin('192.0.2.20', 'burst@example.org', PASSWORD) // a known address: no slowdown in the way
    const burst = await Promise.all(Array.from({ length: 25 }, () => apiLogin('192.0.2.20', 'burst@example.org', 'wrong guess')))
    expect(burst.filter((answer) => answer.status === 401)).toHaveLength(RATE_LIMITS.login.pair.limit)
    expect(burst.filter((answer) => answer.status === 429)).toHaveLength(25 - RATE_LIMITS.login.pair.limit)
  })

  it('does not let refused attempts push the queue back for the next person', async () => {
    await makeUser({ email: 'queue@example.org' })
    for (let i = 0; i < SIGN_IN_SLOWDOWN.freeFailures + 4; i++)
      await apiLogin(`10.4.0.${i}`, 'queue@example.org', 'wrong guess').catch(() => {})
    // However many attempts are refused now, the queue ahead of a newcomer stays within the longest wait and one gap.
    const refused = await Promise.all(Array.from({ length: 20 }, (_, i) => apiLogin(`10.4.1.${i}`, 'queue@example.org', 'wrong guess')))
    const waits = refused.filter((answer) => answer.status === 429).map((answer) => Number(answer.headers.get('Retry-After')))
    expect(waits.length).toBeGreaterThan(0)
    expect(Math.max(...waits)).toBeLessThanOrEqual((SIGN_IN_SLOWDOWN.maxWaitMs + SIGN_IN_SLOWDOWN.maxGapMs) / 1000 + 1)
  }, 60_000)

  it('refuses one address past its limit across accounts, on the page too', async () => {
    const { limit } = RATE_LIMITS.login.ip
    for (let i = 0; i < limit; i++) await pageLogin('192.0.2.7', `guess${i}@example.org`, 'whatever1')
    const refused = await pageLogin('192.0.2.7', 'new@example.org', 'whatever1')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/)
    expect((await pageLogin('192.0.2.8', 'new@example.org', 'whatever1')).status).toBe(401)
  })
})

describe('forgot password', () => {
  it('lets the owner ask for a link from their own address after others asked for it elsewhere', async () => {
    await makeUser({ email: 'mailbox@example.org' })
    for (let i = 0; i < RATE_LIMITS.forgot.pair.limit; i++) expect((await apiForgot(`10.1.0.${i}`, 'mailbox@example.org')).status).toBe(200)
    const before = await mailsTo('mailbox@example.org')
    expect((await apiForgot('198.51.100.3', 'mailbox@example.org')).status).toBe(200)
    expect(await mailsTo('mailbox@example.org')).toBe(before + 1)
  })

  it('refuses one address asking too often about one account, on the page too', async () => {
    await makeUser({ email: 'pest@example.org' })
    for (let i = 0; i < RATE_LIMITS.forgot.pair.limit; i++) await apiForgot('10.1.1.1', 'pest@example.org')
    const refused = await fromIp('10.1.1.1', () => call(forgotPage, formRequest('/forgot-password', { email: 'pest@example.org' })))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/)
  })

  it('still sends past the cap when the owner holds no link that works', async () => {
    const user = await makeUser({ email: 'expired@example.org' })
    for (let i = 0; i < RESET_MAILS_PER_ACCOUNT.limit; i++) await apiForgot(`10.5.0.${i}`, 'expired@example.org')
    expect(await mailsTo('expired@example.org')).toBe(RESET_MAILS_PER_ACCOUNT.limit)
    // Half an hour later, every link has expired, and the hour's cap still holds.
    await prisma.passwordReset.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    await apiForgot('198.51.100.9', 'expired@example.org')
    expect(await mailsTo('expired@example.org')).toBe(RESET_MAILS_PER_ACCOUNT.limit + 1)
  })

  it('caps the mails one account receives from everyone, answering the same', async () => {
    await makeUser({ email: 'flooded@example.org' })
    const answers = []
    for (let i = 0; i < RESET_MAILS_PER_ACCOUNT.limit + 3; i++) answers.push(await apiForgot(`10.3.0.${i}`, 'flooded@example.org'))
    expect(answers.map((answer) => answer.status)).toEqual(Array(RESET_MAILS_PER_ACCOUNT.limit + 3).fill(200))
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1)
    expect(await mailsTo('flooded@example.org')).toBe(RESET_MAILS_PER_ACCOUNT.limit)
  })
})

describe('the store', () => {
  it('counts an IPv6 client by its /64, and an IPv4-mapped one by its IPv4 address', () => {
    expect(limitedAddress('2001:db8:1:2:aaaa::1')).toBe(limitedAddress('2001:0db8:0001:0002:ffff:ffff:ffff:fffe'))
    expect(limitedAddress('2001:db8:1:2::1')).not.toBe(limitedAddress('2001:db8:1:3::1'))
    expect(limitedAddress('::1')).toBe('0:0:0:0::/64')
    expect(limitedAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(limitedAddress('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(limitedAddress('192.0.2.1')).toBe('192.0.2.1')
  })

  it('refuses addresses of one IPv6 /64 together', async () => {
    const { limit } = RATE_LIMITS.signup.ip
    for (let i = 0; i < limit; i++) await fromIp(`2001:db8:0:7::${(i + 1).toString(16)}`, () => enforceRateLimit('signup'))
    await expect(fromIp('2001:db8:0:7:dead:beef:0:1', () => enforceRateLimit('signup'))).rejects.toBeInstanceOf(RateLimitError)
    await expect(fromIp('2001:db8:0:8::1', () => enforceRateLimit('signup'))).resolves.toBeUndefined()
  })

  it('remembers nothing more for an address once it is refused', async () => {
    await expect(
      fromIp('203.0.113.5', async () => {
        for (let i = 0; i < 1000; i++) await enforceRateLimit('forgot', `victim${i}@example.org`)
      }),
    ).rejects.toBeInstanceOf(RateLimitError)
    const swallow = (error: unknown) => void expect(error).toBeInstanceOf(RateLimitError)
    for (let i = 0; i < 1000; i++) await fromIp('203.0.113.5', () => enforceRateLimit('forgot', `victim${i}@example.org`)).catch(swallow)
    // One key for the address, one for each account it asked about before it was refused.
    expect(await rateLimitKeysForTests()).toBe(1 + RATE_LIMITS.forgot.ip.limit)
  })

  // SQLite's store, in memory; PostgreSQL's table is purged of ended windows (on-postgres.postgres.test.ts).
  it('in memory, holds at most a fixed number of keys, however many addresses arrive', async () => {
    const memory = createMemoryStore()
    for (let i = 0; i < MEMORY_STORE_MAX_KEYS + 20_000; i++) await memory.count(`signup:ip:ip-${i}`, RATE_LIMITS.signup.ip.windowMs)
    expect(memory.size()).toBe(MEMORY_STORE_MAX_KEYS)
  })
})
