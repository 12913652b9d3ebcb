import { prisma } from '~/server/platform/db.server'
import { action as register } from '~/routes/auth/register'
import { action as login } from '~/routes/auth/login'
import { action as logout } from '~/routes/auth/logout'
import { loader as profile } from '~/routes/auth/profile'
import { action as forgotPassword } from '~/routes/auth/forgot-password'
import { loader as verifyResetToken } from '~/routes/auth/verify-reset-token'
import { action as resetPasswordApi } from '~/routes/auth/reset-password'
import { loader as listUsers } from '~/routes/auth/users'
import { settlePendingMail } from '~/server/accounts/email.server'
import { resetDatabase } from '../setup/db'
import { call, getRequest, jsonRequest } from '../setup/requests'
import { makeApiUser, PASSWORD } from '../setup/users'

beforeEach(resetDatabase)

const registration = {
  email: 'Ada@Example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  password: 'analytical engine',
  confirmPassword: 'analytical engine',
}

async function tokenFromResetMail(email: string) {
  const mail = await globalThis.smtpSink.waitForMail((m) => m.to.includes(email))
  return decodeURIComponent(/reset-password\?token=([\w-]+)/.exec(mail.text)![1])
}

describe('POST /auth/register', () => {
  it('creates the account and answers 201 with a working token', async () => {
    const res = await call(register, jsonRequest('/auth/register', registration))
    expect(res.status).toBe(201)
    expect(res.body.user).toMatchObject({ email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', isAdmin: true })
    expect(res.body.user).not.toHaveProperty('passwordHash')
    const me = await call(profile, getRequest('/auth/profile', { token: res.body.token }))
    expect(me.status).toBe(200)
    expect(me.body.email).toBe('ada@example.org')
  })

  it('ignores extra fields such as isAdmin', async () => {
    await makeApiUser() // the first account is the admin
    const res = await call(register, jsonRequest('/auth/register', { ...registration, isAdmin: true, id: 'x' }))
    expect(res.status).toBe(201)
    expect(res.body.user.isAdmin).toBe(false)
    expect(res.body.user.id).not.toBe('x')
  })

  it.each([
    ['a malformed email', { email: 'not-an-email' }, 'email'],
    ['mismatched passwords', { confirmPassword: 'something else' }, 'confirmPassword'],
    ['a short password', { password: 'short', confirmPassword: 'short' }, 'password'],
    ['a password over 128 characters', { password: 'x'.repeat(129), confirmPassword: 'x'.repeat(129) }, 'password'],
    ['a missing first name', { firstName: undefined }, 'firstName'],
  ])('refuses %s with 400 and the field in details', async (_, change, field) => {
    const res = await call(register, jsonRequest('/auth/register', { ...registration, ...change }))
    expect(res.status).toBe(400)
    expect(res.body.details).toHaveProperty(field)
    // The first problem, in words, for clients that show only `error` (in a toast, say).
    expect(res.body.error).toBe(res.body.details[field][0])
    expect(await prisma.user.count()).toBe(0)
  })

  it('says Passwords do not match for a mismatch', async () => {
    const res = await call(register, jsonRequest('/auth/register', { ...registration, confirmPassword: 'different' }))
    expect(res.body.error).toBe('Passwords do not match')
    expect(res.body.details.confirmPassword).toEqual(['Passwords do not match'])
  })

  it('refuses a duplicate email, whatever its case, with 409', async () => {
    await call(register, jsonRequest('/auth/register', registration))
    const res = await call(register, jsonRequest('/auth/register', { ...registration, email: 'ADA@example.org' }))
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ error: 'An account with this email already exists' })
  })

  it('answers broken JSON with 400 and a wrong content type with 415, never a 500', async () => {
    const broken = await call(register, jsonRequest('/auth/register', '{"email": '))
    expect(broken.status).toBe(400)
    expect(broken.body).toEqual({ error: 'Request body is not valid JSON' })
    const form = new Request('https://x.test/auth/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(registration),
    })
    const wrongType = await call(register, form)
    expect(wrongType.status).toBe(415)
    expect(wrongType.body.error).toMatch(/application\/json/)
  })
})

describe('POST /auth/login', () => {
  it('returns a token for the right password', async () => {
    const { user } = await makeApiUser({ email: 'grace@example.org' })
    const res = await call(login, jsonRequest('/auth/login', { email: 'GRACE@example.org', password: PASSWORD }))
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(user.id)
    expect(res.body.token).toEqual(expect.any(String))
  })

  it('answers a wrong password and an unknown email identically with 401', async () => {
    await makeApiUser({ email: 'grace@example.org' })
    const wrong = await call(login, jsonRequest('/auth/login', { email: 'grace@example.org', password: 'wrong password' }))
    const unknown = await call(login, jsonRequest('/auth/login', { email: 'nobody@example.org', password: PASSWORD }))
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(unknown.body).toEqual(wrong.body)
  })
})

describe('GET /auth/profile and POST /auth/logout', () => {
  it('reports the remaining daily count and who is asking', async () => {
    const { token } = await makeApiUser({ firstName: 'Ada', lastName: 'Lovelace' })
    const res = await call(profile, getRequest('/auth/profile', { token }))
    expect(res.body).toMatchObject({ count: 10, name: 'Ada Lovelace', isAdmin: true })
  })

  it('answers 401 without a token, with a bad token, and after logout', async () => {
    const { token } = await makeApiUser()
    expect((await call(profile, getRequest('/auth/profile'))).status).toBe(401)
    expect((await call(profile, getRequest('/auth/profile', { token: 'made-up' }))).status).toBe(401)
    expect((await call(logout, jsonRequest('/auth/logout', {}, { token }))).status).toBe(200)
    const after = await call(profile, getRequest('/auth/profile', { token }))
    expect(after.status).toBe(401)
    expect(after.body).toEqual({ error: 'Authentication required' })
  })

  it('does not accept the token in the query string', async () => {
    const { token } = await makeApiUser()
    expect((await call(profile, getRequest(`/auth/profile?token=${token}`))).status).toBe(401)
  })
})

describe('password reset through the API', () => {
  it('answers forgot-password identically for known and unknown emails and mails only the known', async () => {
    await makeApiUser({ email: 'known@example.org' })
    const known = await call(forgotPassword, jsonRequest('/auth/forgot-password', { email: 'known@example.org' }))
    const unknown = await call(forgotPassword, jsonRequest('/auth/forgot-password', { email: 'unknown@example.org' }))
    expect(known.status).toBe(200)
    expect(unknown).toEqual({ ...known, headers: unknown.headers })
    await settlePendingMail()
    await tokenFromResetMail('known@example.org')
    expect(globalThis.smtpSink.messages.map((m) => m.to).flat()).toEqual(['known@example.org'])
  })

  it('verifies, redeems once, and then refuses the token', async () => {
    const { token: apiToken } = await makeApiUser({ email: 'reset@example.org' })
    await call(forgotPassword, jsonRequest('/auth/forgot-password', { email: 'reset@example.org' }))
    const token = await tokenFromResetMail('reset@example.org')

    expect((await call(verifyResetToken, getRequest(`/auth/verify-reset-token?token=${token}`))).status).toBe(200)
    const reset = await call(resetPasswordApi, jsonRequest('/auth/reset-password', { token, newPassword: 'new password 123' }))
    expect(reset.status).toBe(200)
    const again = await call(resetPasswordApi, jsonRequest('/auth/reset-password', { token, newPassword: 'other password 123' }))
    expect(again.status).toBe(400)
    expect((await call(verifyResetToken, getRequest(`/auth/verify-reset-token?token=${token}`))).status).toBe(400)
    // The reset revoked the old API token; the new password works.
    expect((await call(profile, getRequest('/auth/profile', { token: apiToken }))).status).toBe(401)
    const relogin = await call(login, jsonRequest('/auth/login', { email: 'reset@example.org', password: 'new password 123' }))
    expect(relogin.status).toBe(200)
  })

  it('refuses a missing or unknown token and a short new password', async () => {
    expect((await call(verifyResetToken, getRequest('/auth/verify-reset-token'))).body).toEqual({ error: 'Invalid or missing reset token' })
    expect((await call(verifyResetToken, getRequest('/auth/verify-reset-token?token=nope'))).status).toBe(400)
    const short = await call(resetPasswordApi, jsonRequest('/auth/reset-password', { token: 'nope', newPassword: 'short' }))
    expect(short.status).toBe(400)
    expect(short.body.details.newPassword).toBeDefined()
  })
})

describe('GET /auth/', () => {
  it('lists users for an admin, refuses others with 403 and anonymous callers with 401', async () => {
    const admin = await makeApiUser({ email: 'admin@example.org' })
    const member = await makeApiUser({ email: 'member@example.org', firstName: 'Mem', lastName: 'Ber' })
    const res = await call(listUsers, getRequest('/auth/', { token: admin.token }))
    expect(res.status).toBe(200)
    expect(res.body.users).toHaveLength(2)
    expect(res.body.users[1]).toEqual({
      id: member.user.id,
      email: 'member@example.org',
      first_name: 'Mem',
      last_name: 'Ber',
      createdAt: expect.any(String),
      // The operator controls (docs/decisions/014): the role, the state, the limit and the use of each account.
      isAdmin: false,
      disabled: false,
      dailyLimit: null,
      generationsToday: 0,
      generationsTotal: 0,
    })
    expect((await call(listUsers, getRequest('/auth/', { token: member.token }))).status).toBe(403)
    expect((await call(listUsers, getRequest('/auth/'))).status).toBe(401)
  })
})
