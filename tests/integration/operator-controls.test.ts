import fs from 'node:fs'
import { prisma } from '~/server/platform/db.server'
import { resetEnvForTests } from '~/server/platform/env.server'
import { hashToken } from '~/server/platform/crypto.server'
import { createSession, getUserBySessionToken } from '~/server/accounts/auth.server'
import { createUser } from '~/server/accounts/users.server'
import { requestPasswordReset, resetPassword } from '~/server/accounts/password-reset.server'
import { updateUserControls } from '~/server/accounts/user-controls.server'
import { settlePendingMail } from '~/server/accounts/email.server'
import { claimQuota, refundQuota, utcDay } from '~/server/usage/quota.server'
import { startGeneration, waitForGeneration } from '~/server/generation/job/jobs.server'
import { action as signupAction, loader as signupLoader } from '~/routes/public/signup'
import { action as loginAction, loader as loginLoader } from '~/routes/public/login'
import { action as forgotAction } from '~/routes/public/forgot-password'
import { action as resetPageAction, loader as resetPageLoader } from '~/routes/public/reset-password'
import { action as welcomeAction, loader as welcomeLoader } from '~/routes/public/welcome'
import { action as usersAction, loader as usersLoader } from '~/routes/app/users'
import { loader as dashboardLoader } from '~/routes/app/dashboard'
import { action as registerApi } from '~/routes/auth/register'
import { action as loginApi } from '~/routes/auth/login'
import { loader as profileApi } from '~/routes/auth/profile'
import { loader as usersApi } from '~/routes/auth/users'
import { action as userApi, loader as userApiLoader } from '~/routes/auth/user'
import { eventOf } from '../setup/app-logs'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { resetDatabase } from '../setup/db'
import { readAnswer } from '../setup/http-answer'
import { useFakeModel, useOfflineDrafter } from '../setup/model'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, jsonRequest } from '../setup/requests'
import { makeApiUser, makeUser, PASSWORD } from '../setup/users'
import { QuotaError } from '~/server/usage/contract.server'

// Controls for the people who run an instance (docs/decisions/014): who gets in (SIGNUPS, invitations), and seeing and
// limiting use (Manage Users and PATCH /auth/users/{id}): disabling, per-user limits, the admin role.
// Loaders and actions are called in-process; the last block runs the BUILT app (npm run build first).

const DISABLED = 'This account has been disabled. Please contact your administrator.'
const CLOSED = 'Sign-ups are closed on this site. Ask an administrator for an invitation.'

beforeEach(resetDatabase)
afterEach(() => {
  delete process.env.SIGNUPS
  resetEnvForTests()
})

function configure(values: Record<string, string>) {
  Object.assign(process.env, values)
  resetEnvForTests()
}

const signupForm = (email: string) => ({
  email,
  firstName: 'Ada',
  lastName: 'Lovelace',
  password: PASSWORD,
  confirmPassword: PASSWORD,
  acceptTerms: 'on',
})
const registration = (email: string) => ({ email, firstName: 'Ada', lastName: 'Lovelace', password: PASSWORD, confirmPassword: PASSWORD })

async function signIn(email: string, password = PASSWORD) {
  const answer = await call(loginAction, formRequest('/login', { email, password }))
  expect(answer.status).toBe(302)
  return cookiesFrom(answer.headers)
}

/** The admin (the first account) with a cookie and a token, and a member with both. */
async function adminAndMember() {
  const admin = await makeApiUser({ email: 'admin@example.org', firstName: 'Grace', lastName: 'Hopper' })
  const member = await makeApiUser({ email: 'member@example.org', firstName: 'Alan', lastName: 'Turing' })
  return {
    admin: { ...admin, cookie: await signIn('admin@example.org') },
    member: { ...member, cookie: await signIn('member@example.org') },
  }
}

const patch = (id: string, body: unknown, token?: string) =>
  call(userApi, jsonRequest(`/auth/users/${id}`, body, { method: 'PATCH', token }), { id })

const consolePost = (fields: Record<string, string>, cookie: string, search = '') =>
  call(usersAction, formRequest(`/users${search}`, fields, { cookie }))

const toastOf = (headers: Headers) => headers.getSetCookie().some((cookie) => cookie.startsWith('__toast='))

describe('SIGNUPS=closed', () => {
  beforeEach(() => configure({ SIGNUPS: 'closed' }))

  it('still lets the first account sign up, as the administrator, and refuses the next with 403 on the page', async () => {
    expect((await call(signupLoader, getRequest('/signup'))).status).toBe(200)
    const first = await call(signupAction, formRequest('/signup', signupForm('first@example.org')))
    expect(first.status).toBe(302)
    expect((await prisma.user.findUniqueOrThrow({ where: { email: 'first@example.org' } })).isAdmin).toBe(true)

    const page = await call(signupLoader, getRequest('/signup'))
    expect(page.status).toBe(403)
    expect(page.body).toMatchObject({ signupsOpen: false, message: CLOSED })
    const refused = await call(signupAction, formRequest('/signup', signupForm('second@example.org')))
    expect(refused.status).toBe(403)
    expect(refused.body.error['']).toEqual([CLOSED])
    expect(refused.body.toast).toEqual({ type: 'error', message: CLOSED })
    expect(await prisma.user.count()).toBe(1)
  })

  it('refuses the API registration with 403 and the message, even for an email that exists', async () => {
    expect((await call(registerApi, jsonRequest('/auth/register', registration('first@example.org')))).status).toBe(201)
    for (const email of ['second@example.org', 'first@example.org']) {
      const refused = await call(registerApi, jsonRequest('/auth/register', registration(email)))
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({ error: CLOSED })
    }
    expect(await prisma.user.count()).toBe(1)
  })

  it('lets exactly one of several simultaneous first sign-ups in, and makes it the administrator', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        createUser({ email: `race${i}@example.org`, firstName: 'R', lastName: `${i}`, password: PASSWORD }),
      ),
    )
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason.message).toBe(CLOSED)
    const users = await prisma.user.findMany()
    expect(users).toHaveLength(1)
    expect(users[0].isAdmin).toBe(true)
  })

  it('stops the sign-in page advertising "Create an account" once there is an account', async () => {
    expect((await call(loginLoader, getRequest('/login'))).body).toEqual({ signupsOpen: true })
    await makeUser()
    expect((await call(loginLoader, getRequest('/login'))).body).toEqual({ signupsOpen: false })
    configure({ SIGNUPS: 'open' })
    expect((await call(loginLoader, getRequest('/login'))).body).toEqual({ signupsOpen: true })
  })
})

describe('disabling an account', () => {
  it('revokes every session and token at once; the owner can neither sign in (with a clear message) nor generate', async () => {
    const { admin, member } = await adminAndMember()
    const otherToken = await createSession(member.user.id, 'api')
    const answer = await patch(member.user.id, { disabled: true }, admin.token)
    expect(answer.status).toBe(200)
    expect(answer.body.user).toMatchObject({ id: member.user.id, disabled: true })

    expect(await prisma.session.count({ where: { userId: member.user.id } })).toBe(0)
    expect((await call(profileApi, getRequest('/auth/profile', { token: otherToken }))).status).toBe(401)
    const dashboard = await call(dashboardLoader, getRequest('/dashboard', { cookie: member.cookie }))
    expect(dashboard.status).toBe(302)
    expect(dashboard.headers.get('Location')).toMatch(/^\/login/)

    // The right password is told the account is disabled, on the page and the API...
    const page = await call(loginAction, formRequest('/login', { email: 'member@example.org', password: PASSWORD }))
    expect(page.status).toBe(403)
    expect(page.body.error['']).toEqual([DISABLED])
    expect(page.headers.getSetCookie().some((cookie) => cookie.startsWith('__session='))).toBe(false)
    const api = await call(loginApi, jsonRequest('/auth/login', { email: 'member@example.org', password: PASSWORD }))
    expect(api.status).toBe(403)
    expect(api.body).toEqual({ error: DISABLED })
    // ...a wrong one learns nothing.
    const wrong = await call(loginApi, jsonRequest('/auth/login', { email: 'member@example.org', password: 'not the password' }))
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual({ error: 'Invalid email or password' })

    const refused = await startGeneration(member.user.id, FULL_INPUT).catch((error) => error)
    expect(refused).toBeInstanceOf(QuotaError)
    expect(refused).toMatchObject({ status: 403, message: DISABLED })
    expect(await prisma.narrative.count()).toBe(0)

    expect((await patch(member.user.id, { disabled: false }, admin.token)).body.user.disabled).toBe(false)
    expect((await call(loginApi, jsonRequest('/auth/login', { email: 'member@example.org', password: PASSWORD }))).status).toBe(200)
  })

  it('stops the generations the user has running', async () => {
    const fake = await useFakeModel({ timeoutMs: 5000 })
    try {
      const { admin, member } = await adminAndMember()
      const slow = { ...FULL_INPUT, missionStatement: `${FULL_INPUT.missionStatement} [[fake:slow]]` }
      const { id } = await startGeneration(member.user.id, slow)
      await patch(member.user.id, { disabled: true }, admin.token)
      await waitForGeneration(id)
      expect((await prisma.narrative.findUniqueOrThrow({ where: { id } })).status).toBe('stopped')
    } finally {
      useOfflineDrafter()
      await fake.close()
    }
  })

  it('refuses a session of a disabled user even when its row survived', async () => {
    const { admin, member } = await adminAndMember()
    await patch(member.user.id, { disabled: true }, admin.token)
    const token = 'a-session-made-behind-the-apps-back'
    await prisma.session.create({
      data: { id: hashToken(token), kind: 'api', userId: member.user.id, expiresAt: new Date(Date.now() + 60_000) },
    })
    expect(await getUserBySessionToken(token, 'api')).toBeNull()
  })

  it('is not undone by a password reset: no reset mail, and a link issued before cannot be redeemed', async () => {
    const { admin, member } = await adminAndMember()
    requestPasswordReset('member@example.org')
    const mail = await globalThis.smtpSink.waitForMail((m) => m.to.includes('member@example.org'))
    const token = decodeURIComponent(/reset-password\?token=([\w-]+)/.exec(mail.text)![1])
    await patch(member.user.id, { disabled: true }, admin.token)
    // Disabling voided the link; one slipped in afterwards still cannot be redeemed.
    expect(await resetPassword(token, 'a brand new password')).toBe(false)
    const late = 'late-reset-token'
    await prisma.passwordReset.create({
      data: { tokenHash: hashToken(late), userId: member.user.id, expiresAt: new Date(Date.now() + 60_000) },
    })
    expect((await call(resetPageLoader, getRequest(`/reset-password?token=${late}`))).status).toBe(400)
    expect(await resetPassword(late, 'a brand new password')).toBe(false)

    globalThis.smtpSink.clear()
    requestPasswordReset('member@example.org')
    await settlePendingMail()
    expect(globalThis.smtpSink.messages).toHaveLength(0)
    const user = await prisma.user.findUniqueOrThrow({ where: { id: member.user.id } })
    expect(user.disabledAt).not.toBeNull()
    expect((await call(loginApi, jsonRequest('/auth/login', { email: 'member@example.org', password: PASSWORD }))).status).toBe(403)
  })

  it('asks for confirmation on the page, without JavaScript, then disables with a toast', async () => {
    const { admin, member } = await adminAndMember()
    const confirm = await call(usersLoader, getRequest(`/users?q=alan&disable=${member.user.id}`, { cookie: admin.cookie }))
    expect(confirm.status).toBe(200)
    expect(confirm.body.confirmDisable).toMatchObject({ id: member.user.id, email: 'member@example.org' })
    expect(await prisma.user.count({ where: { disabledAt: { not: null } } })).toBe(0)

    const done = await consolePost({ intent: 'disable', id: member.user.id }, admin.cookie, '?q=alan&disable=x')
    expect(done.status).toBe(302)
    expect(done.headers.get('Location')).toBe('/users?q=alan')
    expect(toastOf(done.headers)).toBe(true)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: member.user.id } })).disabledAt).not.toBeNull()
    expect(await prisma.session.count({ where: { userId: member.user.id } })).toBe(0)
    await consolePost({ intent: 'enable', id: member.user.id }, admin.cookie)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: member.user.id } })).disabledAt).toBeNull()
  })
})

describe('administrators protect themselves and the instance', () => {
  it('cannot disable or demote themselves, on the API or the page (409 and a clear message)', async () => {
    const { admin } = await adminAndMember()
    const disable = await patch(admin.user.id, { disabled: true }, admin.token)
    expect(disable.status).toBe(409)
    expect(disable.body.error).toBe('You cannot disable your own account.')
    const demote = await patch(admin.user.id, { isAdmin: false, dailyLimit: 3 }, admin.token)
    expect(demote.status).toBe(409)
    expect(demote.body.error).toBe('You cannot remove your own administrator role.')
    const page = await consolePost({ intent: 'disable', id: admin.user.id }, admin.cookie)
    expect(page.status).toBe(409)
    const revoke = await consolePost({ intent: 'revoke', id: admin.user.id }, admin.cookie)
    expect(revoke.status).toBe(409)
    const me = await prisma.user.findUniqueOrThrow({ where: { id: admin.user.id } })
    expect(me).toMatchObject({ isAdmin: true, disabledAt: null, dailyLimit: null })
    // Their own limit is theirs to set.
    expect((await patch(admin.user.id, { dailyLimit: 3 }, admin.token)).status).toBe(200)
  })

  it('never leave the instance without an active administrator, even when two disable each other at once', async () => {
    const { admin, member } = await adminAndMember()
    await patch(member.user.id, { isAdmin: true }, admin.token)
    const outcomes = await Promise.allSettled([
      updateUserControls(admin.user, member.user.id, { disabled: true }),
      updateUserControls(member.user, admin.user.id, { disabled: true }),
    ])
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
    expect(await prisma.user.count({ where: { isAdmin: true, disabledAt: null } })).toBe(1)
  })

  it('grants and revokes the admin role, which takes effect on the next request', async () => {
    const { admin, member } = await adminAndMember()
    expect((await call(usersApi, getRequest('/auth/', { token: member.token }))).status).toBe(403)
    expect((await patch(member.user.id, { isAdmin: true }, admin.token)).body.user.isAdmin).toBe(true)
    expect((await call(usersApi, getRequest('/auth/', { token: member.token }))).status).toBe(200)
    expect((await consolePost({ intent: 'revoke', id: member.user.id }, admin.cookie)).status).toBe(302)
    expect((await call(usersApi, getRequest('/auth/', { token: member.token }))).status).toBe(403)
  })
})

describe('PATCH /auth/users/{id}', () => {
  it('is for administrators: 401 anonymous, 403 a member (even on themselves), 404 an unknown id, 405 a GET', async () => {
    const { admin, member } = await adminAndMember()
    expect((await patch(member.user.id, { dailyLimit: 1 })).status).toBe(401)
    const forbidden = await patch(member.user.id, { dailyLimit: 1000 }, member.token)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ error: 'Administrator access required' })
    expect((await patch(admin.user.id, { disabled: true }, member.token)).status).toBe(403)
    expect((await patch('no-such-user', { dailyLimit: 1 }, admin.token)).status).toBe(404)
    expect(
      (await call(userApiLoader, getRequest(`/auth/users/${member.user.id}`, { token: admin.token }), { id: member.user.id })).status,
    ).toBe(405)
    expect(await prisma.user.findUniqueOrThrow({ where: { id: member.user.id } })).toMatchObject({ dailyLimit: null, disabledAt: null })
  })

  it.each([
    ['a limit over 10,000', { dailyLimit: 10_001 }],
    ['a negative limit', { dailyLimit: -1 }],
    ['a fractional limit', { dailyLimit: 1.5 }],
    ['a limit as text', { dailyLimit: 'lots' }],
    ['disabled as text', { disabled: 'yes' }],
    ['nothing to change', { email: 'new@example.org' }],
  ])('refuses %s with 400', async (_, body) => {
    const { admin, member } = await adminAndMember()
    const answer = await patch(member.user.id, body, admin.token)
    expect(answer.status).toBe(400)
    expect(answer.body.error).toEqual(expect.any(String))
    expect(await prisma.user.findUniqueOrThrow({ where: { id: member.user.id } })).toMatchObject({
      dailyLimit: null,
      disabledAt: null,
      email: 'member@example.org',
    })
  })

  it('sets several controls at once and answers the entry as GET /auth/ lists it', async () => {
    const { admin, member } = await adminAndMember()
    const answer = await patch(member.user.id, { dailyLimit: 25, isAdmin: true }, admin.token)
    expect(answer.status).toBe(200)
    const listed = (await call(usersApi, getRequest('/auth/', { token: admin.token }))).body.users.find(
      (u: { id: string }) => u.id === member.user.id,
    )
    expect(answer.body.user).toEqual(listed)
    expect(listed).toMatchObject({ dailyLimit: 25, isAdmin: true, disabled: false })
    expect((await patch(member.user.id, { dailyLimit: null }, admin.token)).body.user.dailyLimit).toBeNull()
  })

  it('logs every change once, naming who made it, whom it changed and what changed', async () => {
    const { admin, member } = await adminAndMember()
    const lines: string[] = []
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
    try {
      await patch(member.user.id, { disabled: true, dailyLimit: 4 }, admin.token)
      await consolePost({ intent: 'grant', id: member.user.id }, admin.cookie)
    } finally {
      spy.mockRestore()
    }
    const changes = lines.map((line) => JSON.parse(line)).filter((line) => line.event === 'user.updated')
    expect(changes).toEqual([
      expect.objectContaining({ actorId: admin.user.id, userId: member.user.id, changes: { disabled: true, dailyLimit: 4 } }),
      expect.objectContaining({ actorId: admin.user.id, userId: member.user.id, changes: { isAdmin: true } }),
    ])
  })
})

describe('per-user daily limit', () => {
  it('overrides DAILY_NARRATIVE_LIMIT, up or down, in the profile count and in the claim itself', async () => {
    const { admin, member } = await adminAndMember()
    const count = async () => (await call(profileApi, getRequest('/auth/profile', { token: member.token }))).body.count
    expect(await count()).toBe(10)
    await patch(member.user.id, { dailyLimit: 2 }, admin.token)
    expect(await count()).toBe(2)
    // Five claims at once, two allowed: the limit holds inside the one conditional UPDATE.
    const claims = await Promise.all(Array.from({ length: 5 }, () => prisma.$transaction((tx) => claimQuota(tx, member.user.id))))
    expect(claims.filter(Boolean)).toHaveLength(2)
    expect(await count()).toBe(0)

    await patch(member.user.id, { dailyLimit: 12 }, admin.token)
    expect(await count()).toBe(10)
    await patch(member.user.id, { dailyLimit: 0 }, admin.token)
    expect(await prisma.$transaction((tx) => claimQuota(tx, member.user.id))).toBeNull()
    await patch(member.user.id, { dailyLimit: null }, admin.token)
    expect(await count()).toBe(8)
  })

  it('is set and cleared from the page, with a field error for a bad value', async () => {
    const { admin, member } = await adminAndMember()
    const bad = await consolePost({ intent: 'limit', id: member.user.id, dailyLimit: 'lots' }, admin.cookie)
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ id: member.user.id, result: { error: { dailyLimit: [expect.any(String)] } } })
    expect((await consolePost({ intent: 'limit', id: member.user.id, dailyLimit: '3' }, admin.cookie)).status).toBe(302)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: member.user.id } })).dailyLimit).toBe(3)
    await consolePost({ intent: 'limit', id: member.user.id, dailyLimit: '' }, admin.cookie)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: member.user.id } })).dailyLimit).toBeNull()
  })
})

describe('usage, search and pagination', () => {
  async function narrative(userId: string, engine: string, status: string) {
    await prisma.narrative.create({
      data: {
        userId,
        engine,
        status,
        company: 'C',
        contactName1: 'N',
        contactEmail1: 'n@example.org',
        missionStatement: 'M',
        keyPrograms: 'K',
        impactMetrics: 'I',
        tone: 'professional',
      },
    })
  }

  it('lists usage today and in total, the limit and the state of every user, keeping the fields of before', async () => {
    const { admin, member } = await adminAndMember()
    const idle = await makeUser({ email: 'idle@example.org' })
    // Three generations claimed today, one of them failed and given back: two today, and two in total.
    for (let claim = 0; claim < 3; claim++) await prisma.$transaction((tx) => claimQuota(tx, member.user.id, { savesNarrative: false }))
    await prisma.$transaction((tx) => refundQuota(tx, { userId: member.user.id, quotaDay: utcDay() }))
    await narrative(member.user.id, 'manual', 'complete') // saved through the API: no generation
    // Yesterday's use is not today's, but it is in the total.
    await prisma.user.update({ where: { id: idle.id }, data: { quotaDay: '2000-01-01', quotaUsed: 7, generationsTotal: 7 } })
    await patch(idle.id, { disabled: true, dailyLimit: 0 }, admin.token)

    const { users } = (await call(usersApi, getRequest('/auth/', { token: admin.token }))).body
    expect(users.map((u: { email: string }) => u.email)).toEqual(['admin@example.org', 'member@example.org', 'idle@example.org'])
    expect(users[1]).toEqual({
      id: member.user.id,
      email: 'member@example.org',
      first_name: 'Alan',
      last_name: 'Turing',
      createdAt: expect.any(String),
      isAdmin: false,
      disabled: false,
      dailyLimit: null,
      generationsToday: 2,
      generationsTotal: 2,
    })
    expect(users[2]).toMatchObject({ disabled: true, dailyLimit: 0, generationsToday: 0, generationsTotal: 7 })
    // A deleted narrative gives nothing back: today and in total still count what was generated.
    await prisma.narrative.deleteMany({ where: { userId: member.user.id } })
    const after = (await call(usersApi, getRequest('/auth/', { token: admin.token }))).body.users[1]
    expect(after).toMatchObject({ generationsToday: 2, generationsTotal: 2 })
  })

  it('searches by email or name and pages through the results, on the page and the API', async () => {
    const { admin } = await adminAndMember()
    for (let i = 1; i <= 23; i++) await makeUser({ email: `pat${i}@example.org`, firstName: 'Pat', lastName: `Quill${i}` })
    const page = (search: string) => call(usersLoader, getRequest(`/users${search}`, { cookie: admin.cookie })).then((a) => a.body)

    const first = await page('')
    expect(first.users).toHaveLength(20)
    expect(first.pagination).toEqual({ page: 1, pages: 2, total: 25 })
    expect((await page('?page=2')).users).toHaveLength(5)
    expect((await page('?page=99')).pagination.page).toBe(2)
    expect((await page('?q=TURING')).users.map((u: { email: string }) => u.email)).toEqual(['member@example.org'])
    expect((await page('?q=alan%20turing')).users).toHaveLength(1)
    expect((await page('?q=pat1')).users.map((u: { email: string }) => u.email)).toEqual(
      expect.arrayContaining(['pat1@example.org', 'pat10@example.org', 'pat19@example.org']),
    )
    // LIKE's wildcards are taken literally.
    expect((await page('?q=%25')).pagination.total).toBe(0)

    const api = (search: string) => call(usersApi, getRequest(`/auth/${search}`, { token: admin.token })).then((a) => a.body)
    expect((await api('')).users).toHaveLength(25)
    const paged = await api('?q=pat&page=2&limit=10')
    expect(paged.users).toHaveLength(10)
    expect(paged.pagination).toEqual({ page: 2, limit: 10, total: 23, pages: 3 })
    expect((await call(usersApi, getRequest('/auth/?limit=0', { token: admin.token }))).status).toBe(400)
  })
})

describe('invitations', () => {
  async function invite(cookie: string, fields = { email: 'New.Person@example.org', firstName: 'New', lastName: 'Person' }) {
    return consolePost({ intent: 'invite', ...fields }, cookie)
  }

  async function invitationToken(email: string) {
    const mail = await globalThis.smtpSink.waitForMail((m) => m.to.includes(email))
    const match = /https:\/\/narratives\.example\.org\/welcome\?token=([\w-]+)/.exec(mail.text)
    if (!match) throw new Error(`No invitation link in: ${mail.text}`)
    return { mail, token: decodeURIComponent(match[1]) }
  }

  const accept = (token: string, extra: Record<string, string> = {}) =>
    call(
      welcomeAction,
      formRequest('/welcome', { token, newPassword: 'my own password', confirmPassword: 'my own password', acceptTerms: 'on', ...extra }),
    )

  it('creates the account with no password and emails a week-long link whose page sets it, records the terms and signs in', async () => {
    const { admin } = await adminAndMember()
    // Invitations are how people join when sign-ups are closed.
    configure({ SIGNUPS: 'closed' })
    const sent = await invite(admin.cookie)
    expect(sent.status).toBe(302)
    expect(toastOf(sent.headers)).toBe(true)
    const invited = await prisma.user.findUniqueOrThrow({ where: { email: 'new.person@example.org' } })
    expect(invited).toMatchObject({ passwordHash: null, termsAcceptedAt: null, isAdmin: false })
    // Nobody can sign in to it before the invitee sets a password.
    expect(
      (await call(loginApi, jsonRequest('/auth/login', { email: 'new.person@example.org', password: 'any password at all' }))).status,
    ).toBe(401)

    const { mail, token } = await invitationToken('new.person@example.org')
    expect(mail.subject).toBe('You are invited to Impact Narrative Studio')
    expect(mail.text).toContain('Welcome, New!')
    expect(mail.text).toContain('The link will expire in 7 days')
    const link = await prisma.passwordReset.findFirstOrThrow({ where: { userId: invited.id } })
    expect(link).toMatchObject({ purpose: 'invite', tokenHash: hashToken(token) })
    expect(link.expiresAt.getTime() - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000)

    const page = await call(welcomeLoader, getRequest(`/welcome?token=${token}`))
    expect(page.status).toBe(200)
    expect(page.body).toEqual({ token, email: 'new.person@example.org', firstName: 'New' })
    const noTerms = await accept(token, { acceptTerms: '' })
    expect(noTerms.status).toBe(400)
    expect(noTerms.body.result.error.acceptTerms).toEqual(['You must accept the Terms of Service and Privacy Policy'])

    const done = await accept(token)
    expect(done.status).toBe(302)
    expect(done.headers.get('Location')).toBe('/create-narrative')
    const dashboard = await call(dashboardLoader, getRequest('/dashboard', { cookie: cookiesFrom(done.headers) }))
    expect(dashboard.status).toBe(200)
    const after = await prisma.user.findUniqueOrThrow({ where: { id: invited.id } })
    expect(after.termsAcceptedAt).toBeInstanceOf(Date)
    expect(after.marketingConsentAt).toBeNull()
    expect(
      (await call(loginApi, jsonRequest('/auth/login', { email: 'new.person@example.org', password: 'my own password' }))).status,
    ).toBe(200)
    // Once.
    expect((await call(welcomeLoader, getRequest(`/welcome?token=${token}`))).status).toBe(400)
    expect((await accept(token)).status).toBe(400)
  })

  it('keeps invitation and reset links apart', async () => {
    const { admin } = await adminAndMember()
    await invite(admin.cookie)
    const { token } = await invitationToken('new.person@example.org')
    expect((await call(resetPageLoader, getRequest(`/reset-password?token=${token}`))).status).toBe(400)
    const reset = await call(
      resetPageAction,
      formRequest('/reset-password', { token, newPassword: 'sneaky password', confirmPassword: 'sneaky password' }),
    )
    expect(reset.status).toBe(400)

    requestPasswordReset('member@example.org')
    const resetMail = await globalThis.smtpSink.waitForMail((m) => m.to.includes('member@example.org'))
    const resetToken = decodeURIComponent(/reset-password\?token=([\w-]+)/.exec(resetMail.text)![1])
    expect((await call(welcomeLoader, getRequest(`/welcome?token=${resetToken}`))).status).toBe(400)
    expect((await accept(resetToken)).status).toBe(400)
  })

  it('refuses an email that already has an account with 409 on the field', async () => {
    const { admin } = await adminAndMember()
    const answer = await invite(admin.cookie, { email: 'MEMBER@example.org', firstName: 'A', lastName: 'B' })
    expect(answer.status).toBe(409)
    expect(answer.body.result.error.email).toEqual(['An account with this email already exists'])
    expect(await prisma.user.count()).toBe(2)
  })

  it('voids the older link when the invitation is sent again, and a forgotten-password request sends a fresh invitation', async () => {
    const { admin } = await adminAndMember()
    await invite(admin.cookie)
    const first = await invitationToken('new.person@example.org')
    globalThis.smtpSink.clear()
    const invited = await prisma.user.findUniqueOrThrow({ where: { email: 'new.person@example.org' } })
    expect((await consolePost({ intent: 'resend', id: invited.id }, admin.cookie)).status).toBe(302)
    const second = await invitationToken('new.person@example.org')
    expect((await accept(first.token)).status).toBe(400)

    globalThis.smtpSink.clear()
    await call(forgotAction, formRequest('/forgot-password', { email: 'new.person@example.org' }))
    const third = await invitationToken('new.person@example.org')
    expect((await accept(second.token)).status).toBe(400)
    expect((await accept(third.token)).status).toBe(302)
    // Accepted: there is nothing to resend.
    expect((await consolePost({ intent: 'resend', id: invited.id }, admin.cookie)).status).toBe(409)
  })

  it('is for administrators only', async () => {
    const { member } = await adminAndMember()
    expect((await invite(member.cookie)).status).toBe(403)
    expect(await prisma.user.count()).toBe(2)
  })
})

describe('through the built app, with SIGNUPS=closed in its environment', () => {
  let app: AppServer
  let adminToken = ''
  beforeAll(async () => {
    app = await startAppServer({ env: { SIGNUPS: 'closed', SMTP_URL: globalThis.smtpSink.url } })
    adminToken = await registerOverHttp(app.origin, 'closed-admin@example.org', PASSWORD)
  })
  afterAll(async () => {
    await app?.stop()
    if (app) fs.rmSync(app.dataDir, { recursive: true, force: true })
  })

  const send = async (path: string, init: RequestInit = {}) =>
    readAnswer(await fetch(`${app.origin}${path}`, { redirect: 'manual', ...init }))

  it('refuses every sign-up after the first, on the page and the API, and stops offering it', async () => {
    const api = await send('/auth/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(registration('second@example.org')),
    })
    expect(api.status).toBe(403)
    expect(api.json).toEqual({ error: CLOSED })
    const page = await send('/signup')
    expect(page.status).toBe(403)
    expect(page.text).toContain('Sign-ups are closed')
    expect(page.text).toContain(CLOSED)
    expect(page.text).not.toContain('name="password"')
    const form = await send('/signup', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(signupForm('third@example.org')),
    })
    expect(form.status).toBe(403)
    expect(form.text).toContain(CLOSED)
    const login = await send('/login')
    expect(login.status).toBe(200)
    expect(login.text).not.toContain('Create an account')
  })

  it('logs a change under the request that made it, with who made it and whom it changed', async () => {
    const invited = await send('/users', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: await cookieOf('closed-admin@example.org') },
      body: new URLSearchParams({ intent: 'invite', email: 'invitee@example.org', firstName: 'In', lastName: 'Vitee' }),
    })
    expect(invited.status).toBe(302)
    const { users } = (await send('/auth/', { headers: { Authorization: `Bearer ${adminToken}` } })).json
    const [admin, invitee] = users
    expect(invitee).toMatchObject({ email: 'invitee@example.org', disabled: false })
    expect(await eventOf(app, invited, 'user.invited')).toMatchObject({ actorId: admin.id, userId: invitee.id })

    const changed = await send(`/auth/users/${invitee.id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ disabled: true, dailyLimit: 2 }),
    })
    expect(changed.status).toBe(200)
    expect(await eventOf(app, changed, 'user.updated')).toMatchObject({
      level: 'info',
      actorId: admin.id,
      userId: invitee.id,
      changes: { disabled: true, dailyLimit: 2 },
    })
  })

  async function cookieOf(email: string) {
    const answer = await send('/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: PASSWORD }),
    })
    return answer.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('__session='))!
      .split(';')[0]
  }
})
