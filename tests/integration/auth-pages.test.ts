import { prisma } from '~/server/platform/db.server'
import { action as signupAction } from '~/routes/public/signup'
import { action as loginAction, loader as loginLoader } from '~/routes/public/login'
import { action as logoutAction } from '~/routes/logout'
import { action as forgotAction } from '~/routes/public/forgot-password'
import { action as resetAction, loader as resetLoader } from '~/routes/public/reset-password'
import { loader as usersLoader } from '~/routes/app/users'
import { loader as dashboardLoader } from '~/routes/app/dashboard'
import { loader as indexLoader } from '~/routes/home'
import { loader as rootLoader } from '~/root'
import { settlePendingMail } from '~/server/accounts/email.server'
import { resetDatabase } from '../setup/db'
import { call, cookiesFrom, formRequest, getRequest } from '../setup/requests'
import { makeUser, PASSWORD } from '../setup/users'

beforeEach(resetDatabase)

const signup = {
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  password: 'analytical engine',
  confirmPassword: 'analytical engine',
  acceptTerms: 'on',
}

async function signIn(email: string, password = PASSWORD) {
  const res = await call(loginAction, formRequest('/login', { email, password }))
  return cookiesFrom(res.headers)
}

function toastOf(headers: Headers) {
  return headers.getSetCookie().some((cookie) => cookie.startsWith('__toast='))
}

describe('sign-up page', () => {
  it('creates the account, signs in and goes to /create-narrative with a success toast', async () => {
    const res = await call(signupAction, formRequest('/signup', signup))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/create-narrative')
    expect(toastOf(res.headers)).toBe(true)
    const dashboard = await call(dashboardLoader, getRequest('/dashboard', { cookie: cookiesFrom(res.headers) }))
    expect(dashboard.status).toBe(200)
    expect(dashboard.body.remaining).toBe(10)
  })

  it.each([
    ['Passwords do not match', { confirmPassword: 'something else' }, 'confirmPassword'],
    ['You must accept the Terms of Service and Privacy Policy', { acceptTerms: undefined }, 'acceptTerms'],
    ['Enter a valid email address', { email: 'nope' }, 'email'],
    ['Password must be at least 8 characters', { password: 'short', confirmPassword: 'short' }, 'password'],
  ])('refuses with "%s" on the field and never echoes the password', async (message, change, field) => {
    const fields = Object.fromEntries(Object.entries({ ...signup, ...change }).filter(([, v]) => v !== undefined)) as Record<string, string>
    const res = await call(signupAction, formRequest('/signup', fields))
    expect(res.status).toBe(400)
    expect(res.body.error[field]).toContain(message)
    expect(JSON.stringify(res.body)).not.toContain('analytical engine')
    expect(await prisma.user.count()).toBe(0)
  })

  it('refuses a duplicate email with a field error', async () => {
    await makeUser({ email: 'ada@example.org' })
    const res = await call(signupAction, formRequest('/signup', signup))
    expect(res.status).toBe(409)
    expect(res.body.error.email).toEqual(['An account with this email already exists'])
  })

  it('ignores an isAdmin field in the form', async () => {
    await makeUser()
    await call(signupAction, formRequest('/signup', { ...signup, isAdmin: 'true' }))
    expect((await prisma.user.findUniqueOrThrow({ where: { email: 'ada@example.org' } })).isAdmin).toBe(false)
  })
})

describe('messages belong to the answer that gives them', () => {
  const errorOf = (body: { toast?: unknown }) => body.toast

  it('a failed sign-in answers with its error toast and leaves none for the next page', async () => {
    await makeUser({ email: 'grace@example.org' })
    const res = await call(loginAction, formRequest('/login', { email: 'grace@example.org', password: 'not the password' }))
    expect(res.status).toBe(401)
    expect(errorOf(res.body)).toEqual({ type: 'error', message: 'Invalid email or password' })
    expect(toastOf(res.headers)).toBe(false)
    // The page the person goes to next (forgot-password) reads the toast cookie in the root loader.
    const next = await call(rootLoader, getRequest('/forgot-password', { cookie: cookiesFrom(res.headers) }))
    expect(next.body.toast).toBeNull()
  })

  it('a taken email and a mismatch each answer with their own message, not the previous one', async () => {
    await makeUser({ email: 'ada@example.org' })
    const taken = await call(signupAction, formRequest('/signup', signup))
    expect(errorOf(taken.body)).toEqual({ type: 'error', message: 'An account with this email already exists' })
    expect(toastOf(taken.headers)).toBe(false)
    const mismatch = await call(
      signupAction,
      formRequest('/signup', { ...signup, email: 'new@example.org', confirmPassword: 'other' }, { cookie: cookiesFrom(taken.headers) }),
    )
    expect(errorOf(mismatch.body)).toEqual({ type: 'error', message: 'Passwords do not match' })
  })

  it('a redirect still carries its toast, once, to the page it leads to', async () => {
    await makeUser({ email: 'grace@example.org' })
    const res = await call(loginAction, formRequest('/login', { email: 'grace@example.org', password: PASSWORD }))
    const cookie = cookiesFrom(res.headers)
    const landing = await call(rootLoader, getRequest('/dashboard', { cookie }))
    expect(landing.body.toast).toMatchObject({ type: 'success', message: 'Welcome! Login Successfully' })
    // The landing answer re-sets the toast cookie without it.
    const after = await call(rootLoader, getRequest('/dashboard', { cookie: cookiesFrom(landing.headers) }))
    expect(after.body.toast).toBeNull()
  })
})

describe('sign-in page', () => {
  it('signs in, sets an HttpOnly SameSite=Lax cookie and goes to the dashboard', async () => {
    await makeUser({ email: 'grace@example.org' })
    const res = await call(loginAction, formRequest('/login', { email: 'grace@example.org', password: PASSWORD }))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/dashboard')
    const session = res.headers.getSetCookie().find((c) => c.startsWith('__session='))!
    expect(session).toMatch(/HttpOnly/i)
    expect(session).toMatch(/SameSite=Lax/i)
    expect(session).toMatch(/Path=\//)
    expect(session).toMatch(/Secure/) // APP_ORIGIN is https in tests
  })

  it('follows a same-site redirectTo but never an off-site one', async () => {
    await makeUser({ email: 'grace@example.org' })
    const inside = await call(loginAction, formRequest('/login', { email: 'grace@example.org', password: PASSWORD, redirectTo: '/users' }))
    expect(inside.headers.get('Location')).toBe('/users')
    const outside = await call(
      loginAction,
      formRequest('/login', { email: 'grace@example.org', password: PASSWORD, redirectTo: '//evil.example' }),
    )
    expect(outside.headers.get('Location')).toBe('/dashboard')
  })

  it.each([
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '\t//evil.example',
    '/.//evil.example',
    '/%2e//evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/dashboard\r\nSet-Cookie: stolen=1',
  ])('keeps the redirect after sign-in on this site for redirectTo=%j', async (redirectTo) => {
    await makeUser({ email: 'grace@example.org' })
    const answer = await call(loginAction, formRequest('/login', { email: 'grace@example.org', password: PASSWORD, redirectTo }))
    expect(answer.status).toBe(302)
    const location = answer.headers.get('Location')!
    // Where a browser would go: resolved against the page it is on.
    expect(new URL(location, 'https://narratives.example.org/login').origin).toBe('https://narratives.example.org')
    expect(location).not.toMatch(/^\/\/|[\s\\]/)
  })

  it('keeps the path, query and fragment of a same-site redirectTo', async () => {
    await makeUser({ email: 'grace@example.org' })
    const answer = await call(
      loginAction,
      formRequest('/login', { email: 'grace@example.org', password: PASSWORD, redirectTo: '/narrative/abc?tab=versions#v2' }),
    )
    expect(answer.headers.get('Location')).toBe('/narrative/abc?tab=versions#v2')
  })

  it('answers a wrong password and an unknown email the same way', async () => {
    await makeUser({ email: 'grace@example.org' })
    const wrong = await call(loginAction, formRequest('/login', { email: 'grace@example.org', password: 'nope nope' }))
    const unknown = await call(loginAction, formRequest('/login', { email: 'who@example.org', password: 'nope nope' }))
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body.error).toEqual(unknown.body.error)
    expect(wrong.body.error['']).toEqual(['Invalid email or password'])
  })

  it('sends a signed-in visitor from /login and / to the dashboard', async () => {
    await makeUser({ email: 'grace@example.org' })
    const cookie = await signIn('grace@example.org')
    expect((await call(loginLoader, getRequest('/login', { cookie }))).headers.get('Location')).toBe('/dashboard')
    expect((await call(indexLoader, getRequest('/', { cookie }))).headers.get('Location')).toBe('/dashboard')
  })

  it('keeps a newcomer at /, where sign-up is offered while sign-ups are open', async () => {
    expect(await call(indexLoader, getRequest('/'))).toMatchObject({ status: 200, body: { signupsOpen: true } })
  })

  it('logs out by deleting the session row', async () => {
    const user = await makeUser({ email: 'grace@example.org' })
    const cookie = await signIn('grace@example.org')
    const res = await call(logoutAction, formRequest('/logout', {}, { cookie }))
    expect(res.headers.get('Location')).toBe('/login')
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0)
    const after = await call(dashboardLoader, getRequest('/dashboard', { cookie }))
    expect(after.status).toBe(302)
    expect(after.headers.get('Location')).toMatch(/^\/login/)
  })
})

describe('password reset pages', () => {
  it('sends the reset mail, shows the form for a valid token, and the Invalid Reset Link for a used one', async () => {
    await makeUser({ email: 'reset@example.org' })
    const sent = await call(forgotAction, formRequest('/forgot-password', { email: 'reset@example.org' }))
    expect(sent.body.sent).toBe(true)
    const mail = await globalThis.smtpSink.waitForMail((m) => m.to.includes('reset@example.org'))
    const link = /https:\/\/narratives\.example\.org\/reset-password\?token=[\w-]+/.exec(mail.text)![0]
    const token = new URL(link).searchParams.get('token')!

    expect((await call(resetLoader, getRequest(`/reset-password?token=${token}`))).body.token).toBe(token)
    const mismatch = await call(
      resetAction,
      formRequest('/reset-password', { token, newPassword: 'new password 1', confirmPassword: 'other' }),
    )
    expect(mismatch.body.result.error.confirmPassword).toEqual(["Passwords don't match"])
    const done = await call(
      resetAction,
      formRequest('/reset-password', { token, newPassword: 'new password 1', confirmPassword: 'new password 1' }),
    )
    expect(done.headers.get('Location')).toBe('/login')
    const used = await call(resetLoader, getRequest(`/reset-password?token=${token}`))
    expect(used.status).toBe(400)
    expect(used.body.token).toBeNull()
  })

  it('gives the same page for an unknown email', async () => {
    const res = await call(forgotAction, formRequest('/forgot-password', { email: 'ghost@example.org' }))
    expect(res.status).toBe(200)
    expect(res.body.sent).toBe(true)
    await settlePendingMail()
    expect(globalThis.smtpSink.messages).toHaveLength(0)
  })

  it('treats a missing token as invalid', async () => {
    expect((await call(resetLoader, getRequest('/reset-password'))).body.token).toBeNull()
  })
})

describe('users page', () => {
  it('is for administrators only: 403 for a member, redirect to sign-in when signed out', async () => {
    await makeUser({ email: 'admin@example.org' })
    await makeUser({ email: 'member@example.org' })
    const admin = await call(usersLoader, getRequest('/users', { cookie: await signIn('admin@example.org') }))
    expect(admin.status).toBe(200)
    expect(admin.body.users).toHaveLength(2)
    const member = await call(usersLoader, getRequest('/users', { cookie: await signIn('member@example.org') }))
    expect(member.status).toBe(403)
    const anonymous = await call(usersLoader, getRequest('/users'))
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('Location')).toBe('/login?redirectTo=%2Fusers')
  })

  it('reads the admin role from the database on every request', async () => {
    const admin = await makeUser({ email: 'admin@example.org' })
    const cookie = await signIn('admin@example.org')
    await prisma.user.update({ where: { id: admin.id }, data: { isAdmin: false } })
    expect((await call(usersLoader, getRequest('/users', { cookie }))).status).toBe(403)
  })
})
