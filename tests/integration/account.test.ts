import crypto from 'node:crypto'
import fs from 'node:fs'
import type { ReceivedMail } from '../fixtures/smtp-sink'
import { startAppServer, type AppServer } from '../setup/app-server'
import { onAppDatabase } from '../setup/app-database'
import { sendTo, type HttpAnswer, type Send } from '../setup/http-answer'
import { readEvents } from '../setup/sse'

// An account of one's own (docs/decisions/022): the /account page's forms posted as a browser
// without JavaScript posts them, and the token API under /auth/profile, against the BUILT app over
// real HTTP, with its mail read from the worker's real SMTP sink and its rows read from its database.
//
// TRUST_PROXY=1, and every test speaks from an address of its own (X-Forwarded-For), so the rate
// limits one test spends never refuse another's requests.

const PASSWORD = 'account password 1'
const NEW_PASSWORD = 'account password 2'
const CONFIRM_LINK = /^(\S+)\/account\/email\?token=(\S+)$/m

let app: AppServer
let adminToken = ''

beforeAll(async () => {
  app = await startAppServer({ env: { SMTP_URL: globalThis.smtpSink.url, TRUST_PROXY: '1' } })
  // The first account is the administrator.
  adminToken = (await register('account-admin@example.org', nextAddress())).token
})

afterAll(async () => {
  await app?.stop()
  if (app) fs.rmSync(app.dataDir, { recursive: true, force: true })
})

// ---- HTTP ---------------------------------------------------------------------------------------

let addressCount = 0
/** A client address nobody else in this file uses. */
function nextAddress() {
  addressCount += 1
  return `203.0.113.${addressCount}`
}

const send = (urlPath: string, options?: Send): Promise<HttpAnswer> => sendTo(app.origin, urlPath, options)

const get = (urlPath: string, options: Omit<Send, 'method'> = {}) => send(urlPath, { ...options, method: 'GET' })

async function register(email: string, from: string) {
  const answer = await send('/auth/register', {
    json: { email, firstName: 'Ada', lastName: 'Owner', password: PASSWORD, confirmPassword: PASSWORD },
    from,
  })
  if (answer.status !== 201) throw new Error(`register ${email}: ${answer.status} ${answer.text}`)
  return { token: answer.json.token as string, id: answer.json.user.id as string }
}

async function cookieLogin(email: string, from: string, password = PASSWORD) {
  const answer = await send('/login', { form: { email, password }, from })
  const session = answer.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='))
  if (answer.status !== 302 || !session) throw new Error(`login ${email}: ${answer.status}`)
  return session.split(';')[0]
}

/** A new account, signed in with a cookie (for the page) and holding an API token, from its own address. */
async function newPerson(prefix: string) {
  const email = `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.org`
  const from = nextAddress()
  const { token, id } = await register(email, from)
  return { email, from, token, id, cookie: await cookieLogin(email, from) }
}

type Person = Awaited<ReturnType<typeof newPerson>>

const post = (person: Person, form: Record<string, string>) => send('/account', { form, from: person.from, cookie: person.cookie })
const api = (person: Person, urlPath: string, method: string, json?: unknown) =>
  send(urlPath, { method, json, from: person.from, token: person.token })

async function profile(token: string) {
  return get('/auth/profile', { token })
}

async function saveNarrative(person: Person, company: string) {
  const answer = await api(person, '/api/narrative', 'POST', {
    company,
    contactName1: 'Maria Delgado',
    contactEmail1: 'maria@example.org',
    missionStatement: `The mission of ${company}.`,
    keyPrograms: 'Fourteen pantries and a mobile market.',
    impactMetrics: '38,000 people served in 2023.',
    tone: 'professional',
    generatedNarrative: `${company} feeds the valley. It ran fourteen pantries in 2023.`,
  })
  expect(answer.status).toBe(201)
  const id = answer.json.data.id as string
  // A second version, and a variant written by the offline drafter.
  expect((await api(person, `/api/narrative/${id}`, 'PUT', { generatedNarrative: `${company} feeds the whole valley.` })).status).toBe(200)
  const variant = await fetch(`${app.origin}/api/narrative/${id}/variants`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${person.token}`, 'X-Forwarded-For': person.from },
    body: JSON.stringify({ format: 'pitch' }),
  })
  expect(variant.status).toBe(200)
  const events = await readEvents(variant, (event) => event.event === 'done' || event.event === 'error')
  expect(events.at(-1)?.event).toBe('done')
  return id
}

// ---- the page's HTML ----------------------------------------------------------------------------

/** The input named `name` in the form `formId` (conform's ids), as HTML. */
function inputOf(html: string, formId: string, name: string) {
  const input = new RegExp(`<input[^>]*id="${formId}-${name}"[^>]*>`).exec(html)?.[0]
  if (!input) throw new Error(`no input ${formId}-${name} in the page`)
  return input
}

/** The field's error, found through the input's aria-describedby, as a screen reader finds it. */
function describedError(html: string, formId: string, name: string) {
  const input = inputOf(html, formId, name)
  expect(input).toContain('aria-invalid="true"')
  const ids = /aria-describedby="([^"]+)"/.exec(input)?.[1].split(' ') ?? []
  const texts = ids.map((id) => new RegExp(`id="${id}"[^>]*>(.*?)</(ul|p|div)>`, 's').exec(html)?.[1] ?? '')
  return texts.join(' ').replace(/<[^>]+>/g, ' ')
}

// ---- mail and the database ----------------------------------------------------------------------

const readMails = new Set<ReceivedMail>()

async function nextMail(to: string, subject: RegExp) {
  const mail = await globalThis.smtpSink.waitForMail((m) => m.to.includes(to) && subject.test(m.subject) && !readMails.has(m))
  readMails.add(mail)
  return mail
}

function confirmLinkOf(mail: ReceivedMail) {
  const link = CONFIRM_LINK.exec(mail.text)
  if (!link) throw new Error(`no confirmation link in:\n${mail.text}`)
  return { origin: link[1], token: decodeURIComponent(link[2]), path: `/account/email?token=${link[2]}` }
}

async function idOf(email: string) {
  const [row] = await onAppDatabase(app, (query) => query(`SELECT "id" FROM "User" WHERE "email" = ?`, email))
  return String(row.id)
}

async function setAdmin(userId: string, isAdmin: boolean, token: string) {
  expect((await send(`/auth/users/${userId}`, { method: 'PATCH', json: { isAdmin }, token })).status).toBe(200)
}

const NO_ROWS = { User: 0, Session: 0, PasswordReset: 0, Narrative: 0, NarrativeVersion: 0, NarrativeVariant: 0 }

/** How many rows of each table belong to the user. */
function rowsOf(userId: string) {
  return onAppDatabase(app, async (query) => {
    const count = async (sql: string) => Number((await query(sql, userId))[0].n)
    return {
      User: await count(`SELECT COUNT(*) AS n FROM "User" WHERE "id" = ?`),
      Session: await count(`SELECT COUNT(*) AS n FROM "Session" WHERE "userId" = ?`),
      PasswordReset: await count(`SELECT COUNT(*) AS n FROM "PasswordReset" WHERE "userId" = ?`),
      Narrative: await count(`SELECT COUNT(*) AS n FROM "Narrative" WHERE "userId" = ?`),
      NarrativeVersion: await count(
        `SELECT COUNT(*) AS n FROM "NarrativeVersion" v JOIN "Narrative" n ON n."id" = v."narrativeId" WHERE n."userId" = ?`,
      ),
      NarrativeVariant: await count(`SELECT COUNT(*) AS n FROM "NarrativeVariant" WHERE "userId" = ?`),
    }
  })
}

/** Every row a narrative left in its three tables, whoever owns it (none once deleted). */
function narrativeRows(narrativeId: string) {
  return onAppDatabase(app, async (query) => {
    const count = async (table: string, column: string) =>
      Number((await query(`SELECT COUNT(*) AS n FROM "${table}" WHERE "${column}" = ?`, narrativeId))[0].n)
    return (
      (await count('Narrative', 'id')) + (await count('NarrativeVersion', 'narrativeId')) + (await count('NarrativeVariant', 'narrativeId'))
    )
  })
}

// ---- tests --------------------------------------------------------------------------------------

describe('signed out', () => {
  it('sends the page and its forms to sign-in, and refuses the API with 401', async () => {
    for (const answer of [await get('/account'), await send('/account', { form: { intent: 'name', firstName: 'A', lastName: 'B' } })]) {
      expect(answer.status).toBe(302)
      expect(answer.headers.get('Location')).toBe('/login?redirectTo=%2Faccount')
    }
    const link = await get('/account/email?token=abc')
    expect(link.headers.get('Location')).toBe('/login?redirectTo=%2Faccount%2Femail%3Ftoken%3Dabc')
    const download = await get('/resources/account/export')
    expect(download.status).toBe(302)
    expect(download.headers.get('Location')).toBe('/login?redirectTo=%2Fresources%2Faccount%2Fexport')
    const calls: [string, string, unknown][] = [
      ['PATCH', '/auth/profile', { firstName: 'A', lastName: 'B' }],
      ['DELETE', '/auth/profile', { password: PASSWORD }],
      ['POST', '/auth/profile/email', { email: 'x@example.org', currentPassword: PASSWORD }],
      ['POST', '/auth/profile/email/confirm', { token: 'abc' }],
      ['POST', '/auth/profile/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }],
      ['GET', '/auth/profile/export', undefined],
    ]
    for (const [method, urlPath, json] of calls) {
      const answer = await send(urlPath, { method, json })
      expect(answer.status, `${method} ${urlPath}`).toBe(401)
      expect(answer.json).toEqual({ error: 'Authentication required' })
    }
  })
})

describe('the account page', () => {
  it('shows the signed-in person their name and email, with a labelled form for each change', async () => {
    const person = await newPerson('page')
    const page = await get('/account', { cookie: person.cookie })
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('no-store')
    expect(page.text).toContain(person.email)
    for (const [form, name] of [
      ['account-name', 'firstName'],
      ['account-name', 'lastName'],
      ['account-email', 'email'],
      ['account-email', 'currentPassword'],
      ['account-password', 'currentPassword'],
      ['account-password', 'newPassword'],
      ['account-password', 'confirmPassword'],
      ['account-delete', 'password'],
    ]) {
      expect(page.text).toMatch(new RegExp(`<label[^>]*for="${form}-${name}"`))
      inputOf(page.text, form, name)
    }
    expect(page.text).toContain('href="/resources/account/export"')
  })

  it('changes the name, with the rules of sign-up, and says so', async () => {
    const person = await newPerson('rename')
    const refused = await post(person, { intent: 'name', firstName: '', lastName: 'x'.repeat(101) })
    expect(refused.status).toBe(400)
    expect(describedError(refused.text, 'account-name', 'firstName')).toContain('First name is required')
    expect(describedError(refused.text, 'account-name', 'lastName')).toContain('Last name is too long')

    const done = await post(person, { intent: 'name', firstName: '  Grace ', lastName: 'Hopper' })
    expect(done.status).toBe(302)
    expect(done.headers.get('Location')).toBe('/account')
    const next = await get('/account', {
      cookie: `${person.cookie}; ${done.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')}`,
    })
    expect(next.text).toContain('Your name is saved.')
    expect((await profile(person.token)).json).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', name: 'Grace Hopper' })
  })

  it('refuses a wrong current password for a new password, and keeps the old one', async () => {
    const person = await newPerson('wrongpw')
    const answer = await post(person, {
      intent: 'password',
      currentPassword: 'not my password',
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    })
    expect(answer.status).toBe(403)
    expect(describedError(answer.text, 'account-password', 'currentPassword')).toContain('Your current password is not right')
    // Passwords are never sent back into the page.
    expect(answer.text).not.toContain(NEW_PASSWORD)
    expect(answer.text).not.toContain('not my password')
    await cookieLogin(person.email, person.from, PASSWORD)
  })

  it('changes the password and ends every other session and API token, keeping this one', async () => {
    const person = await newPerson('newpw')
    const otherCookie = await cookieLogin(person.email, person.from)
    const answer = await post(person, {
      intent: 'password',
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    })
    expect(answer.status).toBe(302)
    expect(answer.headers.get('Location')).toBe('/account')

    expect((await get('/account', { cookie: person.cookie })).status).toBe(200)
    const other = await get('/account', { cookie: otherCookie })
    expect(other.status).toBe(302)
    expect(other.headers.get('Location')).toMatch(/^\/login/)
    expect((await profile(person.token)).status).toBe(401)
    expect((await rowsOf(person.id)).Session).toBe(1)

    expect((await send('/login', { form: { email: person.email, password: PASSWORD }, from: person.from })).status).toBe(401)
    await cookieLogin(person.email, person.from, NEW_PASSWORD)
    const notice = await nextMail(person.email, /password was changed/)
    expect(notice.text).not.toContain(NEW_PASSWORD)
  })

  it('changes the email only when the link sent to the new address is opened by its account', async () => {
    const person = await newPerson('move')
    const stranger = await newPerson('stranger')
    const newEmail = `moved-${crypto.randomUUID().slice(0, 8)}@example.org`

    const asked = await post(person, { intent: 'email', email: newEmail.toUpperCase(), currentPassword: PASSWORD })
    expect(asked.status).toBe(302)
    expect(asked.headers.get('Location')).toBe('/account')
    const link = confirmLinkOf(await nextMail(newEmail, /Confirm your new/))
    expect(link.origin).toBe(app.origin)
    expect(link.token).toMatch(/^[\w-]{43}$/)
    const warned = await nextMail(person.email, /change of your .* email was requested/)
    expect(warned.text).toContain(newEmail)
    expect(warned.text).not.toContain(link.token)
    // Nothing changes yet; the token is stored only as its hash.
    expect((await profile(person.token)).json.email).toBe(person.email)
    const stored = await onAppDatabase(app, (query) =>
      query(`SELECT "tokenHash", "newEmail" FROM "PasswordReset" WHERE "userId" = ? AND "purpose" = 'email'`, person.id),
    )
    expect(stored).toEqual([{ tokenHash: crypto.createHash('sha256').update(link.token).digest('hex'), newEmail }])

    // Another account cannot use it (and does not spend it).
    const foreignPage = await get(link.path, { cookie: stranger.cookie })
    expect(foreignPage.status).toBe(400)
    expect(foreignPage.text).toContain('This confirmation link has expired or is invalid.')
    expect((await send(link.path, { form: { token: link.token }, cookie: stranger.cookie, from: stranger.from })).status).toBe(400)
    expect((await api(stranger, '/auth/profile/email/confirm', 'POST', { token: link.token })).status).toBe(400)
    expect((await profile(stranger.token)).json.email).toBe(stranger.email)

    // Opening the link asks to confirm (a GET changes nothing); the form does it.
    const page = await get(link.path, { cookie: person.cookie })
    expect(page.status).toBe(200)
    expect(page.text).toContain(newEmail)
    expect((await profile(person.token)).json.email).toBe(person.email)
    const confirmed = await send(link.path, { form: { token: link.token }, cookie: person.cookie, from: person.from })
    expect(confirmed.status).toBe(302)
    expect(confirmed.headers.get('Location')).toBe('/account')
    expect((await profile(person.token)).json.email).toBe(newEmail)
    const changed = await nextMail(person.email, /email was changed/)
    expect(changed.text).toContain(newEmail)
    await cookieLogin(newEmail, person.from)

    // Used: refused.
    expect((await get(link.path, { cookie: person.cookie })).status).toBe(400)
    expect((await send(link.path, { form: { token: link.token }, cookie: person.cookie, from: person.from })).status).toBe(400)
  })

  it('leaves a pending reset link alone when asked, and voids it once the email has changed', async () => {
    const person = await newPerson('reset-then-move')
    expect((await send('/auth/forgot-password', { json: { email: person.email }, from: person.from })).status).toBe(200)
    const reset = /reset-password\?token=(\S+)$/m.exec((await nextMail(person.email, /Reset your/)).text)![1]
    const resetValid = async () => (await get(`/auth/verify-reset-token?token=${reset}`)).status
    const newEmail = `reset-moved-${crypto.randomUUID().slice(0, 8)}@example.org`
    expect((await post(person, { intent: 'email', email: newEmail, currentPassword: PASSWORD })).status).toBe(302)
    const link = confirmLinkOf(await nextMail(newEmail, /Confirm your new/))
    expect(await resetValid()).toBe(200)
    expect((await send(link.path, { form: { token: link.token }, cookie: person.cookie, from: person.from })).status).toBe(302)
    // The reset link went to the old address: it no longer works.
    expect(await resetValid()).toBe(400)
  })

  it('refuses an expired link', async () => {
    const person = await newPerson('expire')
    const newEmail = `late-${crypto.randomUUID().slice(0, 8)}@example.org`
    expect((await post(person, { intent: 'email', email: newEmail, currentPassword: PASSWORD })).status).toBe(302)
    const link = confirmLinkOf(await nextMail(newEmail, /Confirm your new/))
    await onAppDatabase(app, (query) =>
      query(`UPDATE "PasswordReset" SET "expiresAt" = '2000-01-01T00:00:00.000+00:00' WHERE "userId" = ?`, person.id),
    )
    expect((await get(link.path, { cookie: person.cookie })).status).toBe(400)
    expect((await send(link.path, { form: { token: link.token }, cookie: person.cookie, from: person.from })).status).toBe(400)
    expect((await api(person, '/auth/profile/email/confirm', 'POST', { token: link.token })).status).toBe(400)
    expect((await profile(person.token)).json.email).toBe(person.email)
  })

  it('answers a taken address as any other, and tells only its holder', async () => {
    const person = await newPerson('taker')
    const holder = await newPerson('holder')
    const answer = await post(person, { intent: 'email', email: holder.email, currentPassword: PASSWORD })
    expect(answer.status).toBe(302)
    expect(answer.headers.get('Location')).toBe('/account')
    const free = await post(person, {
      intent: 'email',
      email: `free-${crypto.randomUUID().slice(0, 8)}@example.org`,
      currentPassword: PASSWORD,
    })
    // The same answer, the same toast, whether or not the address has an account.
    expect(free.status).toBe(answer.status)
    const told = await nextMail(holder.email, /Your address was given/)
    expect(told.text).toContain('already belongs to an account')
    expect(told.text).not.toMatch(CONFIRM_LINK)
    expect(told.text).not.toContain(person.email)
    await nextMail(person.email, /change of your .* email was requested/)
    const links = await onAppDatabase(app, (query) => query(`SELECT "newEmail" FROM "PasswordReset" WHERE "newEmail" = ?`, holder.email))
    expect(links).toEqual([])
    expect((await profile(person.token)).json.email).toBe(person.email)
  })

  it('refuses a change of email without the right password, or to the same address', async () => {
    const person = await newPerson('emailpw')
    const wrong = await post(person, { intent: 'email', email: 'somewhere@example.org', currentPassword: 'wrong password' })
    expect(wrong.status).toBe(403)
    expect(describedError(wrong.text, 'account-email', 'currentPassword')).toContain('Your current password is not right')
    const same = await post(person, { intent: 'email', email: person.email, currentPassword: PASSWORD })
    expect(same.status).toBe(400)
    expect(describedError(same.text, 'account-email', 'email')).toContain('This is already your email address.')
    expect((await rowsOf(person.id)).PasswordReset).toBe(0)
  })

  it("downloads the person's own data as a JSON attachment: profile, narratives, versions and variants, no secrets", async () => {
    const person = await newPerson('export')
    const other = await newPerson('export-other')
    const own = await saveNarrative(person, 'Own Valley Pantry')
    await saveNarrative(other, 'Foreign Orchard Trust')
    // The administrator's own export holds only their own narratives too.
    const answer = await get('/resources/account/export', { cookie: person.cookie })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(answer.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="impact-narrative-studio-account-\d{4}-\d{2}-\d{2}\.json"$/,
    )
    expect(answer.headers.get('Cache-Control')).toBe('no-store')
    const data = answer.json
    expect(data.profile).toMatchObject({ id: person.id, email: person.email, firstName: 'Ada', lastName: 'Owner', isAdmin: false })
    expect(data.narratives.map((n: { id: string }) => n.id)).toEqual([own])
    const [narrative] = data.narratives
    expect(narrative.company).toBe('Own Valley Pantry')
    expect(narrative.versions.map((v: { source: string }) => v.source)).toEqual(['edited', 'edited'])
    expect(narrative.variants).toHaveLength(1)
    expect(narrative.variants[0]).toMatchObject({ format: 'pitch', text: expect.any(String) })
    expect(answer.text).not.toContain('Foreign Orchard Trust')
    expect(answer.text).not.toContain(other.email)
    // No password hash, token, token hash or session id, under any name.
    expect(answer.text).not.toMatch(/\$argon2|passwordHash|tokenHash|"token"|sessionId/i)
    expect(answer.text).not.toContain(person.token)

    const admin = await get('/auth/profile/export', { token: adminToken })
    expect(admin.json.narratives).toEqual([])
  })

  it('refuses deletion with a wrong password, deletes nothing', async () => {
    const person = await newPerson('keep')
    const answer = await post(person, { intent: 'delete', password: 'wrong password' })
    expect(answer.status).toBe(403)
    expect(describedError(answer.text, 'account-delete', 'password')).toContain('Your current password is not right')
    expect((await rowsOf(person.id)).User).toBe(1)
  })

  it('deletes the account and every row of it, ends the session and lands on a page that says so', async () => {
    const person = await newPerson('leave')
    const other = await newPerson('stay')
    const narrativeId = await saveNarrative(person, 'Leaving Valley Pantry')
    const otherNarrative = await saveNarrative(other, 'Staying Orchard Trust')
    await forgotPassword(person)
    const before = await rowsOf(person.id)
    expect(before).toMatchObject({ User: 1, Narrative: 1, NarrativeVersion: 2, NarrativeVariant: 1, PasswordReset: 1 })
    expect(before.Session).toBeGreaterThanOrEqual(2)
    const otherBefore = await rowsOf(other.id)

    const answer = await post(person, { intent: 'delete', password: PASSWORD })
    expect(answer.status).toBe(302)
    expect(answer.headers.get('Location')).toBe('/login')
    const cleared = answer.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='))
    expect(cleared).toMatch(/^__session=;.*Expires=Thu, 01 Jan 1970/i)
    const toast = answer.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('__toast='))!
      .split(';')[0]
    const landing = await get('/login', { cookie: toast })
    expect(landing.status).toBe(200)
    expect(landing.text).toContain('Your account and all its data have been deleted.')

    expect(await rowsOf(person.id)).toEqual(NO_ROWS)
    expect(await narrativeRows(narrativeId)).toBe(0)
    expect(await rowsOf(other.id)).toEqual(otherBefore)
    expect(await narrativeRows(otherNarrative)).toBe(4)
    expect((await get('/account', { cookie: person.cookie })).status).toBe(302)
    expect((await profile(person.token)).status).toBe(401)
    await nextMail(person.email, /account was deleted/)
  })

  it('refuses to delete the last administrator, and lets an administrator go once another remains', async () => {
    const from = nextAddress()
    const adminCookie = await cookieLogin('account-admin@example.org', from)
    const admin = { email: 'account-admin@example.org', from, token: adminToken, id: '', cookie: adminCookie }
    const answer = await post(admin, { intent: 'delete', password: PASSWORD })
    expect(answer.status).toBe(409)
    expect(answer.text).toContain('You are the only administrator.')
    expect((await profile(adminToken)).status).toBe(200)
    const api409 = await api(admin, '/auth/profile', 'DELETE', { password: PASSWORD })
    expect(api409.status).toBe(409)
    expect(api409.json).toEqual({ error: expect.stringContaining('You are the only administrator.') })

    // A second administrator may leave while the first remains.
    const second = await newPerson('second-admin')
    expect((await send(`/auth/users/${second.id}`, { method: 'PATCH', json: { isAdmin: true }, token: adminToken })).status).toBe(200)
    expect((await api(second, '/auth/profile', 'DELETE', { password: PASSWORD })).status).toBe(200)
    expect((await rowsOf(second.id)).User).toBe(0)
  })
})

async function forgotPassword(person: Person) {
  expect((await send('/auth/forgot-password', { json: { email: person.email }, from: person.from })).status).toBe(200)
  await nextMail(person.email, /Reset your/)
}

describe('the token API under /auth/profile', () => {
  it('PATCH /auth/profile changes the name with the rules of sign-up', async () => {
    const person = await newPerson('api-rename')
    const refused = await api(person, '/auth/profile', 'PATCH', { firstName: '', lastName: 'Lovelace' })
    expect(refused.status).toBe(400)
    expect(refused.json).toEqual({ error: 'First name is required', details: { firstName: ['First name is required'] } })
    const answer = await api(person, '/auth/profile', 'PATCH', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ignored@example.org',
      isAdmin: true,
    })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({ user: { id: person.id, email: person.email, firstName: 'Ada', lastName: 'Lovelace', isAdmin: false } })
  })

  it('POST /auth/profile/password needs the current password and ends every other session and token', async () => {
    const person = await newPerson('api-pw')
    const otherToken = (await send('/auth/login', { json: { email: person.email, password: PASSWORD }, from: person.from })).json.token
    const wrong = await api(person, '/auth/profile/password', 'POST', { currentPassword: 'wrong password', newPassword: NEW_PASSWORD })
    expect(wrong.status).toBe(403)
    expect(wrong.json).toEqual({ error: 'Your current password is not right' })
    const short = await api(person, '/auth/profile/password', 'POST', { currentPassword: PASSWORD, newPassword: 'short' })
    expect(short.status).toBe(400)

    const answer = await api(person, '/auth/profile/password', 'POST', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({ message: expect.any(String) })
    expect((await profile(person.token)).status).toBe(200)
    expect((await profile(otherToken)).status).toBe(401)
    expect((await get('/account', { cookie: person.cookie })).status).toBe(302)
    expect((await send('/auth/login', { json: { email: person.email, password: NEW_PASSWORD }, from: person.from })).status).toBe(200)
  })

  it('POST /auth/profile/email sends the link; /auth/profile/email/confirm redeems it once', async () => {
    const person = await newPerson('api-move')
    const newEmail = `api-moved-${crypto.randomUUID().slice(0, 8)}@example.org`
    const wrong = await api(person, '/auth/profile/email', 'POST', { email: newEmail, currentPassword: 'wrong password' })
    expect(wrong.status).toBe(403)
    const asked = await api(person, '/auth/profile/email', 'POST', { email: newEmail, currentPassword: PASSWORD })
    expect(asked.status).toBe(202)
    expect(asked.json).toEqual({ message: expect.stringContaining(newEmail) })
    const link = confirmLinkOf(await nextMail(newEmail, /Confirm your new/))
    expect((await api(person, '/auth/profile/email/confirm', 'POST', { token: 'not-a-real-token' })).status).toBe(400)
    const confirmed = await api(person, '/auth/profile/email/confirm', 'POST', { token: link.token })
    expect(confirmed.status).toBe(200)
    expect(confirmed.json.user).toMatchObject({ id: person.id, email: newEmail })
    const again = await api(person, '/auth/profile/email/confirm', 'POST', { token: link.token })
    expect(again.status).toBe(400)
    expect(again.json).toEqual({ error: 'This confirmation link has expired or is invalid.' })
    // The sessions stay: an email change is no password change.
    expect((await get('/account', { cookie: person.cookie })).status).toBe(200)
  })

  it('limits requests to change the email, right password or not, and mails the stranger nothing the requester typed', async () => {
    const person = await newPerson('api-spam')
    const target = (i: number) => `stranger-${i}-${crypto.randomUUID().slice(0, 8)}@example.org`
    const first = target(0)
    expect((await api(person, '/auth/profile/email', 'POST', { email: first, currentPassword: PASSWORD })).status).toBe(202)
    const mail = await nextMail(first, /Confirm your new/)
    expect(mail.text).toMatch(/^Hello,$/m)
    expect(mail.text).not.toContain('Ada')
    for (const i of [1, 2])
      expect((await api(person, '/auth/profile/email', 'POST', { email: target(i), currentPassword: PASSWORD })).status).toBe(202)
    const refused = await api(person, '/auth/profile/email', 'POST', { email: target(3), currentPassword: PASSWORD })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
  })

  it('GET /auth/profile/export answers the same attachment as the page', async () => {
    const person = await newPerson('api-export')
    await saveNarrative(person, 'Api Valley Pantry')
    const answer = await api(person, '/auth/profile/export', 'GET')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('Content-Disposition')).toMatch(/^attachment; filename=/)
    expect(answer.json.profile.email).toBe(person.email)
    expect(answer.json.narratives).toHaveLength(1)
    expect(answer.json.narratives[0].versions).toHaveLength(2)
    expect(answer.json.narratives[0].variants).toHaveLength(1)
  })

  it('DELETE /auth/profile needs the password, then removes every row', async () => {
    const person = await newPerson('api-leave')
    await saveNarrative(person, 'Api Leaving Pantry')
    const wrong = await api(person, '/auth/profile', 'DELETE', { password: 'wrong password' })
    expect(wrong.status).toBe(403)
    expect((await rowsOf(person.id)).User).toBe(1)
    const answer = await api(person, '/auth/profile', 'DELETE', { password: PASSWORD })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({ message: 'Your account and all its data have been deleted.' })
    expect(await rowsOf(person.id)).toEqual(NO_ROWS)
    expect((await profile(person.token)).status).toBe(401)
  })

  it('keeps an administrator when the last two delete themselves at the same moment', async () => {
    const pair = [await newPerson('racing-admin-a'), await newPerson('racing-admin-b')]
    for (const admin of pair) await setAdmin(admin.id, true, adminToken)
    // The file's administrator steps back for the race, so the pair are the last two.
    const firstId = await idOf('account-admin@example.org')
    await setAdmin(firstId, false, pair[0].token)

    const answers = await Promise.all(pair.map((admin) => api(admin, '/auth/profile', 'DELETE', { password: PASSWORD })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    const [admins] = await onAppDatabase(app, (query) =>
      query(`SELECT COUNT(*) AS n FROM "User" WHERE "isAdmin" = TRUE AND "disabledAt" IS NULL`),
    )
    expect(Number(admins.n)).toBe(1)

    // The one who stayed hands the role back, and the file's administrator is the only one again.
    const survivor = pair[answers.findIndex((answer) => answer.status === 409)]
    await setAdmin(firstId, true, survivor.token)
    await setAdmin(survivor.id, false, adminToken)
  })

  it('limits wrong current passwords per account and address, on the page and the API together', async () => {
    const person = await newPerson('api-guess')
    for (let i = 0; i < 10; i++) {
      const answer =
        i % 2
          ? await post(person, { intent: 'delete', password: `guess ${i}` })
          : await api(person, '/auth/profile', 'DELETE', { password: `guess ${i}` })
      expect(answer.status).toBe(403)
    }
    const api429 = await api(person, '/auth/profile', 'DELETE', { password: PASSWORD })
    expect(api429.status).toBe(429)
    expect(Number(api429.headers.get('Retry-After'))).toBeGreaterThan(0)
    const page429 = await post(person, {
      intent: 'password',
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    })
    expect(page429.status).toBe(429)
    expect((await rowsOf(person.id)).User).toBe(1)
    await cookieLogin(person.email, person.from, PASSWORD)
  })
})
