import fs from 'node:fs'
import http from 'node:http'
import { createSecretToken } from '~/server/platform/crypto.server'
import { RateLimitError } from '~/server/edge/rate-limit.server'
import { RATE_LIMITS } from '~/server/edge/limits.server'
import type { ReceivedMail } from '../fixtures/smtp-sink'
import { eventOf } from '../setup/app-logs'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { FULL_INPUT } from '../setup/narrative-input'
import { sendTo, type Send } from '../setup/http-answer'

// docs/security.md: "Accounts and passwords", "Password reset" and "Data" (logs), through the BUILT app
// over real HTTP: how the client address is found, the sign-up and reset limits, what reset tokens
// and links look like in the mail the app sends (to the worker's real SMTP sink), and which log lines
// auth events leave.
//
// Two apps: `direct` as deployed without a proxy (TRUST_PROXY=0), `proxied` behind one (TRUST_PROXY=1).
// Rate limits are counted per address for the life of an app, so on `proxied` every test speaks from
// addresses of its own (X-Forwarded-For); on `direct` every request shares the socket's address.

const PASSWORD = 'accounts password 1'
const NEW_PASSWORD = 'a brand new password'
const TOO_MANY = new RateLimitError(1).message
const RESET_LINK = /^(\S+)\/reset-password\?token=(\S+)$/m

type Answer = { status: number; headers: Headers; text: string; json: any }

let direct: AppServer
let proxied: AppServer
/** An administrator of `proxied`, to list accounts. */
let adminToken = ''

const send = (app: AppServer, path: string, options?: Send): Promise<Answer> => sendTo(app.origin, path, options)

/** A POST through node:http, which, unlike fetch, sends whatever Host header it is given. */
function postWithHeaders(app: AppServer, path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${app.origin}${path}`,
      { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode!))
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

const registration = (email: string) => ({ email, firstName: 'Test', lastName: 'Person', password: PASSWORD, confirmPassword: PASSWORD })
const signupForm = (email: string) => ({ ...registration(email), acceptTerms: 'on' })

async function cookieLogin(app: AppServer, email: string, from: string, password = PASSWORD) {
  const answer = await send(app, '/login', { form: { email, password }, from })
  const session = answer.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='))
  if (answer.status !== 302 || !session) throw new Error(`login ${email}: ${answer.status}`)
  return { answer, cookie: session.split(';')[0] }
}

async function accountEmails(): Promise<string[]> {
  const answer = await send(proxied, '/auth/', { method: 'GET', token: adminToken })
  return answer.json.users.map((user: { email: string }) => user.email)
}

async function userId(email: string): Promise<string> {
  const answer = await send(proxied, '/auth/', { method: 'GET', token: adminToken })
  return answer.json.users.find((user: { email: string }) => user.email === email).id
}

// ---- mail from the app, read from the worker's SMTP sink -------------------------------------------

const readMails = new Set<ReceivedMail>()

/** The next reset mail to `email` this file has not read yet. */
async function nextResetMail(email: string) {
  const mail = await globalThis.smtpSink.waitForMail((m) => m.to.includes(email) && !readMails.has(m))
  readMails.add(mail)
  const link = RESET_LINK.exec(mail.text)
  if (!link) throw new Error(`no reset link in:\n${mail.text}`)
  return { mail, origin: link[1], token: decodeURIComponent(link[2]) }
}

async function resetToken(app: AppServer, email: string, from: string) {
  expect((await send(app, '/auth/forgot-password', { json: { email }, from })).status).toBe(200)
  return (await nextResetMail(email)).token
}

beforeAll(async () => {
  const env = { SMTP_URL: globalThis.smtpSink.url }
  ;[direct, proxied] = await Promise.all([
    startAppServer({ env: { ...env, TRUST_PROXY: '0' } }),
    // One narrative a day, so the second is a quota refusal.
    startAppServer({ env: { ...env, TRUST_PROXY: '1', DAILY_NARRATIVE_LIMIT: '1' } }),
  ])
  adminToken = await registerOverHttp(proxied.origin, 'accounts-admin@example.org', PASSWORD) // the first: the admin
  await registerOverHttp(direct.origin, 'direct-admin@example.org', PASSWORD)
})

afterAll(async () => {
  for (const app of [direct, proxied]) {
    await app?.stop()
    if (app) fs.rmSync(app.dataDir, { recursive: true, force: true })
  }
})

describe('the client address', () => {
  const bogusReset = { token: 'not-a-real-token', newPassword: NEW_PASSWORD }
  const { limit } = RATE_LIMITS.reset.ip

  it('is the socket address with TRUST_PROXY=0, whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < limit; i++) {
      expect((await send(direct, '/auth/reset-password', { json: bogusReset, from: `198.51.100.${i}` })).status).toBe(400)
    }
    // A new X-Forwarded-For every time, and still one address: the loopback socket's.
    expect((await send(direct, '/auth/reset-password', { json: bogusReset, from: '198.51.100.250' })).status).toBe(429)
    expect((await send(direct, '/auth/reset-password', { json: bogusReset })).status).toBe(429)
  })

  it("is the proxy's last X-Forwarded-For entry with TRUST_PROXY=1; entries the client wrote before it change nothing", async () => {
    const client = '203.0.113.10'
    for (let i = 0; i < limit; i++) {
      expect((await send(proxied, '/auth/reset-password', { json: bogusReset, from: client })).status).toBe(400)
    }
    // The client sent "X-Forwarded-For: <anything>"; the proxy appended the address it saw.
    for (const spoofed of ['198.51.100.7', '10.0.0.1, 127.0.0.1', 'unknown']) {
      expect((await send(proxied, '/auth/reset-password', { json: bogusReset, from: `${spoofed}, ${client}` })).status).toBe(429)
    }
    // Other clients behind the same proxy (the same socket address) have limits of their own.
    expect((await send(proxied, '/auth/reset-password', { json: bogusReset, from: '203.0.113.11' })).status).toBe(400)
    expect((await send(proxied, '/auth/reset-password', { json: bogusReset, from: `${client}, 203.0.113.12` })).status).toBe(400)
  })
})

describe('the sign-up and reset limits (per client address)', () => {
  function expectRefusedPage(answer: Answer, windowMs: number) {
    expect(answer.status).toBe(429)
    const wait = Number(answer.headers.get('Retry-After'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(windowMs / 1000)
    expect(answer.headers.get('Content-Type')).toMatch(/^text\/html/)
    expect(answer.text).toContain(TOO_MANY)
  }

  function expectRefusedApi(answer: Answer, windowMs: number) {
    expect(answer.status).toBe(429)
    const wait = Number(answer.headers.get('Retry-After'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(windowMs / 1000)
    expect(answer.json).toEqual({ error: TOO_MANY })
  }

  it('counts sign-ups on the page and the API together, refuses the next on both with 429, and creates no account', async () => {
    const { limit, windowMs } = RATE_LIMITS.signup.ip
    const from = '203.0.113.20'
    for (let i = 0; i < limit; i++) {
      const email = `limit-signup-${i}@example.org`
      const answer =
        i % 2
          ? await send(proxied, '/signup', { form: signupForm(email), from })
          : await send(proxied, '/auth/register', { json: registration(email), from })
      expect(answer.status).toBe(i % 2 ? 302 : 201)
    }
    const page = await send(proxied, '/signup', { form: signupForm('refused-page@example.org'), from })
    expectRefusedPage(page, windowMs)
    const api = await send(proxied, '/auth/register', { json: registration('refused-api@example.org'), from })
    expectRefusedApi(api, windowMs)
    const emails = await accountEmails()
    expect(emails).not.toContain('refused-page@example.org')
    expect(emails).not.toContain('refused-api@example.org')
    // The refusal is logged under its request, naming the rule.
    expect(await eventOf(proxied, api, 'rate_limit.refused')).toMatchObject({
      level: 'warn',
      action: 'signup',
      requestId: expect.any(String),
    })
    // Another address signs up as usual.
    expect(
      (await send(proxied, '/auth/register', { json: registration('another-address@example.org'), from: '203.0.113.21' })).status,
    ).toBe(201)
  })

  it('counts reset attempts on the page and the API together, and refuses even a valid token without spending it', async () => {
    const { limit, windowMs } = RATE_LIMITS.reset.ip
    const from = '203.0.113.30'
    await registerOverHttp(proxied.origin, 'limit-reset@example.org', PASSWORD)
    const token = await resetToken(proxied, 'limit-reset@example.org', '203.0.113.31')
    for (let i = 0; i < limit; i++) {
      const answer =
        i % 2
          ? await send(proxied, '/reset-password', {
              form: { token: `wrong-${i}`, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
              from,
            })
          : await send(proxied, '/auth/reset-password', { json: { token: `wrong-${i}`, newPassword: NEW_PASSWORD }, from })
      expect(answer.status).toBe(400)
    }
    expectRefusedPage(
      await send(proxied, '/reset-password', { form: { token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, from }),
      windowMs,
    )
    expectRefusedApi(await send(proxied, '/auth/reset-password', { json: { token, newPassword: NEW_PASSWORD }, from }), windowMs)
    // The refused attempts did not use the token up: from another address it still works, once.
    expect((await send(proxied, '/auth/reset-password', { json: { token, newPassword: NEW_PASSWORD }, from: '203.0.113.32' })).status).toBe(
      200,
    )
    expect((await send(proxied, '/auth/reset-password', { json: { token, newPassword: NEW_PASSWORD }, from: '203.0.113.32' })).status).toBe(
      400,
    )
  })
})

describe('the sign-in and forgot-password pages when refused', () => {
  it('send Retry-After with their 429, like the API', async () => {
    const from = '203.0.113.40'
    const { limit, windowMs } = RATE_LIMITS.login.ip
    for (let i = 0; i < limit; i++)
      await send(proxied, '/login', { form: { email: `nobody-${i}@example.org`, password: 'wrong guess' }, from })
    const login = await send(proxied, '/login', { form: { email: 'nobody@example.org', password: 'wrong guess' }, from })
    expect(login.status).toBe(429)
    expect(Number(login.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(Number(login.headers.get('Retry-After'))).toBeLessThanOrEqual(windowMs / 1000)
    const forgot = RATE_LIMITS.forgot.ip
    for (let i = 0; i < forgot.limit; i++) await send(proxied, '/forgot-password', { form: { email: `nobody-${i}@example.org` }, from })
    const refused = await send(proxied, '/forgot-password', { form: { email: 'nobody@example.org' }, from })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(refused.text).toContain(TOO_MANY)
  })
})

describe('reset tokens', () => {
  it('are 256 random bits, URL-safe, and all different, as mailed', async () => {
    const accounts = Array.from({ length: 16 }, (_, i) => `entropy-${i}@example.org`)
    for (const email of accounts) await send(proxied, '/auth/register', { json: registration(email), from: '203.0.113.40' })
    const tokens: string[] = []
    for (const [i, email] of accounts.entries()) {
      // Two requests per account, each from an address of its own (the forgot-password limits).
      for (const j of [1, 2]) tokens.push(await resetToken(proxied, email, `198.18.${i}.${j}`))
    }
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    }
    expect(new Set(tokens).size).toBe(tokens.length)
    // Random bits: about half of them set, and no bit position fixed across every token (as a
    // counter's or a clock's high bits would be). 8192 fair bits land within 0.45-0.55 (9 sigma).
    const bytes = tokens.map((token) => Buffer.from(token, 'base64url'))
    const bit = (buffer: Buffer, i: number) => (buffer[i >> 3] >> (i & 7)) & 1
    let ones = 0
    const fixed: number[] = []
    for (let i = 0; i < 256; i++) {
      const set = bytes.filter((buffer) => bit(buffer, i)).length
      ones += set
      if (set === 0 || set === bytes.length) fixed.push(i)
    }
    expect(ones / (256 * bytes.length)).toBeGreaterThan(0.45)
    expect(ones / (256 * bytes.length)).toBeLessThan(0.55)
    expect(fixed).toEqual([])
  })

  it('come from a generator that does not repeat over 100,000 draws', () => {
    const tokens = new Set(Array.from({ length: 100_000 }, createSecretToken))
    expect(tokens.size).toBe(100_000)
  })
})

describe('reset links are built from APP_ORIGIN', () => {
  const spoofing = {
    Host: 'evil.example',
    'X-Forwarded-Host': 'evil.example',
    'X-Forwarded-Proto': 'https',
    'X-Forwarded-For': '203.0.113.60',
  }

  for (const name of ['direct', 'proxied'] as const) {
    it(`ignores a spoofed Host and X-Forwarded-Host (TRUST_PROXY=${name === 'direct' ? 0 : 1}), on the API and the page`, async () => {
      const app = name === 'direct' ? direct : proxied
      const email = `spoofed-${name}@example.org`
      await registerOverHttp(app.origin, email, PASSWORD)
      const api = await postWithHeaders(
        app,
        '/auth/forgot-password',
        { ...spoofing, 'Content-Type': 'application/json' },
        JSON.stringify({ email }),
      )
      const page = await postWithHeaders(
        app,
        '/forgot-password',
        { ...spoofing, 'Content-Type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({ email }).toString(),
      )
      expect([api, page]).toEqual([200, 200])
      for (let i = 0; i < 2; i++) {
        const { mail, origin } = await nextResetMail(email)
        expect(origin).toBe(app.origin)
        expect(mail.text).not.toContain('evil.example')
      }
    })
  }
})

describe('auth events in the log', () => {
  const from = '203.0.113.70'

  it('name the request and the user: sign-up, sign-in, failed sign-in, sign-out', async () => {
    const apiSignup = await send(proxied, '/auth/register', { json: registration('logged-api@example.org'), from })
    expect(await eventOf(proxied, apiSignup, 'auth.signup')).toMatchObject({ userId: apiSignup.json.user.id })
    const pageSignup = await send(proxied, '/signup', { form: signupForm('logged-page@example.org'), from })
    const pageUser = await userId('logged-page@example.org')
    expect(await eventOf(proxied, pageSignup, 'auth.signup')).toMatchObject({ userId: pageUser })

    const { answer: pageLogin, cookie } = await cookieLogin(proxied, 'logged-page@example.org', from)
    expect(await eventOf(proxied, pageLogin, 'auth.login')).toMatchObject({ userId: pageUser })
    const apiLogin = await send(proxied, '/auth/login', { json: { email: 'logged-api@example.org', password: PASSWORD }, from })
    expect(await eventOf(proxied, apiLogin, 'auth.login')).toMatchObject({ userId: apiSignup.json.user.id })

    const wrongPassword = await send(proxied, '/auth/login', {
      json: { email: 'logged-api@example.org', password: 'not the password' },
      from,
    })
    expect(await eventOf(proxied, wrongPassword, 'auth.login_failed')).toMatchObject({ userId: apiSignup.json.user.id })
    const unknown = await send(proxied, '/login', { form: { email: 'nobody-logged@example.org', password: 'not the password' }, from })
    expect((await eventOf(proxied, unknown, 'auth.login_failed')).userId).toBeUndefined() // no user to name

    const pageLogout = await send(proxied, '/logout', { cookie, from })
    expect(pageLogout.status).toBe(302)
    expect(await eventOf(proxied, pageLogout, 'auth.logout')).toMatchObject({ userId: pageUser })
    const apiLogout = await send(proxied, '/auth/logout', { token: apiLogin.json.token, from })
    expect(apiLogout.status).toBe(200)
    expect(await eventOf(proxied, apiLogout, 'auth.logout')).toMatchObject({ userId: apiSignup.json.user.id })
  })

  it('name the request and the user: reset requested, completed and rejected', async () => {
    const email = 'logged-reset@example.org'
    const id = (await send(proxied, '/auth/register', { json: registration(email), from })).json.user.id
    const requested = await send(proxied, '/auth/forgot-password', { json: { email }, from })
    expect(await eventOf(proxied, requested, 'auth.reset_requested')).toMatchObject({ userId: id })
    const { token } = await nextResetMail(email)
    const unknown = await send(proxied, '/forgot-password', { form: { email: 'nobody-reset@example.org' }, from })
    expect(await eventOf(proxied, unknown, 'auth.reset_requested_unknown')).toMatchObject({ level: 'info' })

    const completed = await send(proxied, '/auth/reset-password', { json: { token, newPassword: NEW_PASSWORD }, from })
    expect(await eventOf(proxied, completed, 'auth.reset_completed')).toMatchObject({ userId: id })
    const rejected = await send(proxied, '/reset-password', {
      form: { token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      from,
    })
    expect(rejected.status).toBe(400)
    expect(await eventOf(proxied, rejected, 'auth.reset_rejected')).toMatchObject({ userId: id })
  })

  it('name the request and the user: denials and quota refusals', async () => {
    const email = 'logged-denied@example.org'
    const { json } = await send(proxied, '/auth/register', { json: registration(email), from })
    const { cookie } = await cookieLogin(proxied, email, from)
    const page = await send(proxied, '/users', { method: 'GET', cookie })
    expect(page.status).toBe(403)
    expect(await eventOf(proxied, page, 'auth.denied')).toMatchObject({ userId: json.user.id, path: '/users' })
    const api = await send(proxied, '/auth/', { method: 'GET', token: json.token })
    expect(api.status).toBe(403)
    expect(await eventOf(proxied, api, 'auth.denied')).toMatchObject({ userId: json.user.id, path: '/auth/' })

    // The day's one narrative (the offline drafter writes it), then a refusal.
    const first = await send(proxied, '/api/narrative/generate', { json: FULL_INPUT, token: json.token })
    expect(first.text).toMatch(/^event: done$/m)
    const refused = await send(proxied, '/api/narrative/generate', { json: FULL_INPUT, token: json.token })
    expect(refused.status).toBe(429)
    expect(await eventOf(proxied, refused, 'quota.refused')).toMatchObject({ userId: json.user.id, reason: 'daily' })
  })
})
