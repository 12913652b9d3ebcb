import { prisma } from '~/server/platform/db.server'
import { hashToken } from '~/server/platform/crypto.server'
import {
  createSession,
  getOptionalUser,
  getUserBySessionToken,
  InvalidCredentialsError,
  commitNewCookieSession,
  endCookieSession,
  safeRedirect,
  verifyLogin,
} from '~/server/accounts/auth.server'
import { createUser, EmailTakenError, setAdmin } from '~/server/accounts/users.server'
import { isResetTokenValid, requestPasswordReset, resetPassword } from '~/server/accounts/password-reset.server'
import { purgeExpiredCredentials } from '~/server/accounts/purge.server'
import { settlePendingMail } from '~/server/accounts/email.server'
import { resetDatabase } from '../setup/db'
import { makeUser, PASSWORD } from '../setup/users'

beforeEach(resetDatabase)

function resetLinkToken(text: string) {
  const match = /https:\/\/narratives\.example\.org\/reset-password\?token=([\w-]+)/.exec(text)
  if (!match) throw new Error(`No reset link in: ${text}`)
  return decodeURIComponent(match[1])
}

async function requestResetToken(email: string) {
  globalThis.smtpSink.clear()
  requestPasswordReset(email)
  const mail = await globalThis.smtpSink.waitForMail((m) => m.to.includes(email))
  return resetLinkToken(mail.text)
}

describe('sign-up', () => {
  it('makes the first account the administrator and no other', async () => {
    const first = await makeUser()
    const second = await makeUser()
    expect(first.isAdmin).toBe(true)
    expect(second.isAdmin).toBe(false)
  })

  it('makes exactly one administrator when the first sign-ups race', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => makeUser()))
    expect(users.filter((user) => user.isAdmin)).toHaveLength(1)
  })

  it('treats email as case-insensitive and refuses a duplicate', async () => {
    await makeUser({ email: 'ada@example.org' })
    await expect(makeUser({ email: 'ada@example.org' })).rejects.toBeInstanceOf(EmailTakenError)
  })

  it('stores an argon2id hash with OWASP parameters, never the password', async () => {
    const user = await makeUser()
    const { passwordHash } = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
    expect(passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(passwordHash).not.toContain(PASSWORD)
  })

  it('records terms acceptance always and marketing consent only when given', async () => {
    const base = { firstName: 'A', lastName: 'B', password: PASSWORD }
    const optedIn = await createUser({ ...base, email: 'in@example.org', marketingConsent: true })
    const optedOut = await createUser({ ...base, email: 'out@example.org' })
    const [a, b] = await Promise.all([optedIn, optedOut].map((u) => prisma.user.findUniqueOrThrow({ where: { id: u.id } })))
    expect(a.termsAcceptedAt).toBeInstanceOf(Date)
    expect(a.marketingConsentAt).toBeInstanceOf(Date)
    expect(b.termsAcceptedAt).toBeInstanceOf(Date)
    expect(b.marketingConsentAt).toBeNull()
  })
})

describe('sign-in', () => {
  it('accepts the right password and gives the same error for a wrong one or an unknown email', async () => {
    await makeUser({ email: 'grace@example.org' })
    await expect(verifyLogin('grace@example.org', PASSWORD)).resolves.toMatchObject({ email: 'grace@example.org' })
    const wrong = await verifyLogin('grace@example.org', 'not the password').catch((e) => e)
    const unknown = await verifyLogin('nobody@example.org', PASSWORD).catch((e) => e)
    expect(wrong).toBeInstanceOf(InvalidCredentialsError)
    expect(unknown).toBeInstanceOf(InvalidCredentialsError)
    expect(unknown.message).toBe(wrong.message)
  })

  it('takes the password exactly as typed', async () => {
    await makeUser({ email: 'spaces@example.org' })
    await expect(verifyLogin('spaces@example.org', ` ${PASSWORD} `)).rejects.toBeInstanceOf(InvalidCredentialsError)
  })
})

describe('sessions', () => {
  it('stores only a hash of the token and finds the user by the token', async () => {
    const user = await makeUser()
    const token = await createSession(user.id, 'api')
    expect(await prisma.session.findUnique({ where: { id: token } })).toBeNull()
    expect(await prisma.session.findUnique({ where: { id: hashToken(token) } })).not.toBeNull()
    expect(await getUserBySessionToken(token, 'api')).toMatchObject({ id: user.id })
  })

  it('does not accept a cookie session as an API token or the reverse', async () => {
    const user = await makeUser()
    const apiToken = await createSession(user.id, 'api')
    const cookieToken = await createSession(user.id, 'cookie')
    expect(await getUserBySessionToken(apiToken, 'cookie')).toBeNull()
    expect(await getUserBySessionToken(cookieToken, 'api')).toBeNull()
  })

  it('treats an expired session as signed out', async () => {
    const user = await makeUser()
    const token = await createSession(user.id, 'api')
    await prisma.session.update({ where: { id: hashToken(token) }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expect(await getUserBySessionToken(token, 'api')).toBeNull()
  })

  it('reads the cookie session, ignores a tampered cookie and deletes the row at logout', async () => {
    const user = await makeUser()
    const setCookie = await commitNewCookieSession(new Request('https://x.test/'), user.id)
    const cookie = setCookie.split(';')[0]
    const request = new Request('https://x.test/', { headers: { Cookie: cookie } })
    expect(await getOptionalUser(request)).toMatchObject({ id: user.id })

    const [name, value] = cookie.split('=')
    const tampered = `${name}=${value.slice(0, -3)}abc`
    expect(await getOptionalUser(new Request('https://x.test/', { headers: { Cookie: tampered } }))).toBeNull()

    await endCookieSession(request)
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0)
    expect(await getOptionalUser(request)).toBeNull()
  })

  it('gives a new session id at every sign-in', async () => {
    const user = await makeUser()
    const first = await commitNewCookieSession(new Request('https://x.test/'), user.id)
    const second = await commitNewCookieSession(new Request('https://x.test/', { headers: { Cookie: first.split(';')[0] } }), user.id)
    expect(second.split(';')[0]).not.toBe(first.split(';')[0])
  })

  it('deletes the session a browser held when it signs in again, keeping other devices signed in', async () => {
    const user = await makeUser()
    const otherDevice = await createSession(user.id, 'cookie')
    const first = await commitNewCookieSession(new Request('https://x.test/'), user.id)
    const firstRequest = new Request('https://x.test/', { headers: { Cookie: first.split(';')[0] } })
    await commitNewCookieSession(firstRequest, user.id)
    expect(await getOptionalUser(firstRequest)).toBeNull()
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(2)
    expect(await getUserBySessionToken(otherDevice, 'cookie')).not.toBeNull()
  })

  it('purges expired sessions and reset tokens, and only those', async () => {
    const user = await makeUser()
    const live = await createSession(user.id, 'api')
    const expired = await createSession(user.id, 'cookie')
    await prisma.session.update({ where: { id: hashToken(expired) }, data: { expiresAt: new Date(Date.now() - 1000) } })
    requestPasswordReset(user.email)
    await settlePendingMail()
    await prisma.passwordReset.create({ data: { tokenHash: 'old', userId: user.id, expiresAt: new Date(Date.now() - 1000) } })
    await purgeExpiredCredentials()
    expect(await prisma.session.findMany({ select: { id: true } })).toEqual([{ id: hashToken(live) }])
    expect(await prisma.passwordReset.count({ where: { tokenHash: 'old' } })).toBe(0)
    expect(await prisma.passwordReset.count()).toBe(1)
  })

  it('only redirects to paths on this site', () => {
    expect(safeRedirect('/users')).toBe('/users')
    expect(safeRedirect('//evil.example')).toBe('/dashboard')
    expect(safeRedirect('https://evil.example')).toBe('/dashboard')
    expect(safeRedirect('/\\evil.example')).toBe('/dashboard')
  })
})

describe('admin role', () => {
  it('is granted and revoked by email', async () => {
    await makeUser()
    const user = await makeUser({ email: 'Role@Example.org' })
    expect(await setAdmin('ROLE@example.org', true)).toBe(true)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).isAdmin).toBe(true)
    expect(await setAdmin('role@example.org', false)).toBe(true)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).isAdmin).toBe(false)
    expect(await setAdmin('missing@example.org', true)).toBe(false)
  })
})

describe('password reset', () => {
  it('emails a single-use link built from APP_ORIGIN that sets the new password', async () => {
    await makeUser({ email: 'reset@example.org' })
    const token = await requestResetToken('reset@example.org')
    expect(await isResetTokenValid(token)).toBe(true)
    expect(await resetPassword(token, 'a brand new password')).toBe(true)
    await expect(verifyLogin('reset@example.org', 'a brand new password')).resolves.toBeTruthy()
    await expect(verifyLogin('reset@example.org', PASSWORD)).rejects.toBeInstanceOf(InvalidCredentialsError)
    expect(await isResetTokenValid(token)).toBe(false)
    expect(await resetPassword(token, 'yet another password')).toBe(false)
  })

  it('stores only a hash of the token', async () => {
    await makeUser({ email: 'hash@example.org' })
    const token = await requestResetToken('hash@example.org')
    const rows = await prisma.passwordReset.findMany()
    expect(rows).toHaveLength(1)
    expect(rows[0].tokenHash).toBe(hashToken(token))
  })

  it('lets only one of two simultaneous redemptions succeed', async () => {
    await makeUser({ email: 'race@example.org' })
    const token = await requestResetToken('race@example.org')
    const results = await Promise.all([resetPassword(token, 'first new password'), resetPassword(token, 'second new password')])
    expect(results.filter(Boolean)).toHaveLength(1)
  })

  it('voids older tokens when a new one is requested', async () => {
    await makeUser({ email: 'twice@example.org' })
    const older = await requestResetToken('twice@example.org')
    const newer = await requestResetToken('twice@example.org')
    expect(await isResetTokenValid(older)).toBe(false)
    expect(await isResetTokenValid(newer)).toBe(true)
  })

  it('refuses an expired token', async () => {
    await makeUser({ email: 'late@example.org' })
    const token = await requestResetToken('late@example.org')
    await prisma.passwordReset.updateMany({ data: { expiresAt: new Date(Date.now() - 1) } })
    expect(await isResetTokenValid(token)).toBe(false)
    expect(await resetPassword(token, 'too late password')).toBe(false)
  })

  it('revokes every session and API token of the user and signs nobody in', async () => {
    const user = await makeUser({ email: 'revoke@example.org' })
    const other = await makeUser()
    await createSession(user.id, 'cookie')
    await createSession(user.id, 'api')
    const othersToken = await createSession(other.id, 'api')
    const token = await requestResetToken('revoke@example.org')
    await resetPassword(token, 'after reset password')
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0)
    expect(await getUserBySessionToken(othersToken, 'api')).not.toBeNull()
  })

  it('sends nothing for an unknown email', async () => {
    requestPasswordReset('ghost@example.org')
    await settlePendingMail()
    expect(globalThis.smtpSink.messages).toHaveLength(0)
    expect(await prisma.passwordReset.count()).toBe(0)
  })
})
