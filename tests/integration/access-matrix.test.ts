import fs from 'node:fs'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { dumpAppDatabase } from '../setup/app-database'

// The role-by-endpoint matrix (docs/security.md#access-control; docs/spec.md#roles and
// docs/api.md): every page, resource route and API endpoint, as an anonymous visitor, the owner of a
// narrative, another user and the administrator, against the BUILT app over real HTTP.
//
// Pages and resource routes take the signed cookie session; the token API takes only a bearer token.
// A foreign narrative reads as 404 everywhere; a missing sign-in is a redirect to /login on pages and
// a 401 on the API; the user list and the operator controls are admin-only (403 for others).

type Actor = 'anonymous' | 'user' | 'other' | 'admin'
const ACTORS: Actor[] = ['anonymous', 'user', 'other', 'admin']
const SIGNED_IN: Exclude<Actor, 'anonymous'>[] = ['user', 'other', 'admin']

const PASSWORD = 'matrix password 1'
const EMAILS: Record<Exclude<Actor, 'anonymous'>, string> = {
  admin: 'matrix-admin@example.org',
  user: 'matrix-owner@example.org',
  other: 'matrix-other@example.org',
}

const DOCX = /application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.document/
const SSE = /^text\/event-stream/
const HTML = /^text\/html/

/** An expected answer: a status, optionally where it redirects to and what it is. */
type Expect = { status: number; location?: string; type?: RegExp; loginFor?: string }
type Cell = number | Expect

/**
 * Which narrative `{id}` stands for. `shared` is the owner's narrative every actor probes; the
 * destructive rows each get a narrative of the owner's per actor, so a delete never removes a row
 * another case still needs.
 */
type Target = 'shared' | 'application' | 'apiDelete' | 'pageDelete' | 'indexDelete'

type Row = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  /** cookie: pages and resource routes; bearer: the token API; fresh: a new cookie/token made for this case (logout). */
  auth: 'cookie' | 'bearer' | 'fresh-cookie' | 'fresh-bearer'
  expect: Record<Actor, Cell>
  form?: Record<string, string>
  json?: unknown
  target?: Target
  /** Told apart in the test name when one call appears in several rows. */
  label?: string
}

/** Signed out: to /login, with the page (path and query, ids filled in) to come back to. */
const toLogin = (path: string): Expect => ({ status: 302, loginFor: path })
const redirectTo = (location: string): Expect => ({ status: 302, location })
const html = (status: number): Expect => ({ status, type: HTML })
const all = (cell: Cell): Record<Actor, Cell> => ({ anonymous: cell, user: cell, other: cell, admin: cell })
const signedIn = (anonymous: Cell, cell: Cell): Record<Actor, Cell> => ({ anonymous, user: cell, other: cell, admin: cell })
/** A signed-in page everyone may open; anonymous visitors go to /login and come back. */
const guardedPage = (path: string) => signedIn(toLogin(path), html(200))
/** A page or resource of the owner's narrative: the owner and the admin reach it, anyone else gets 404. */
const ownedPage = (path: string, ok: Expect = html(200)): Record<Actor, Cell> => ({
  anonymous: toLogin(path),
  user: ok,
  other: 404,
  admin: ok,
})
/** The owner's funder brief: the owner alone reaches it, and an administrator is anyone else here. */
const ownBrief = (anonymous: Cell, ok: Cell): Record<Actor, Cell> => ({ anonymous, user: ok, other: 404, admin: 404 })
/** The token API on the owner's narrative. */
const ownedApi = (ok: Cell = 200): Record<Actor, Cell> => ({ anonymous: 401, user: ok, other: 404, admin: ok })

const NARRATIVE = {
  company: 'Matrix Food Bank',
  contactName1: 'Maria Delgado',
  contactEmail1: 'maria@matrix.example.org',
  missionStatement: 'To end hunger in the valley.',
  keyPrograms: 'Fourteen pantries and a mobile market.',
  impactMetrics: '38,000 people served in 2023.',
  tone: 'professional',
  generatedNarrative: 'The original narrative text.',
}

const VALID_SAVE = { intent: 'save', generatedNarrative: 'Saved from the detail page.' }

const ROWS: Row[] = [
  // ---- Signed-in pages (cookie). /narrative is the dashboard's second name (docs/spec.md#routes).
  { method: 'GET', path: '/dashboard', auth: 'cookie', expect: guardedPage('/dashboard') },
  { method: 'GET', path: '/narrative', auth: 'cookie', expect: guardedPage('/narrative') },
  // The dashboard's ?from= / ?narrative= with a foreign id show an empty form, not the narrative (asserted below).
  { method: 'GET', path: '/dashboard?from={id}', auth: 'cookie', expect: guardedPage('/dashboard?from={id}') },
  { method: 'GET', path: '/dashboard?narrative={id}', auth: 'cookie', expect: guardedPage('/dashboard?narrative={id}') },
  { method: 'GET', path: '/admin/narratives', auth: 'cookie', expect: guardedPage('/admin/narratives') },
  { method: 'GET', path: '/admin/narratives/{id}', auth: 'cookie', expect: ownedPage('/admin/narratives/{id}') },
  { method: 'GET', path: '/admin/narratives/{id}?edit=1', auth: 'cookie', expect: ownedPage('/admin/narratives/{id}?edit=1') },
  { method: 'GET', path: '/admin/narratives/{id}/delete', auth: 'cookie', expect: ownedPage('/admin/narratives/{id}/delete') },
  {
    method: 'GET',
    path: '/admin/narratives/{id}/application',
    auth: 'cookie',
    target: 'application',
    expect: ownedPage('/admin/narratives/{id}/application'),
  },
  {
    method: 'GET',
    path: '/resources/narratives/{id}/application/pdf?statement=1',
    auth: 'cookie',
    target: 'application',
    expect: ownedPage('/resources/narratives/{id}/application/pdf?statement=1', { status: 200, type: /^application\/pdf/ }),
  },
  {
    method: 'POST',
    path: '/admin/narratives/{id}/application',
    auth: 'cookie',
    target: 'application',
    form: { intent: 'answer', question: '0', text: 'Fresh food for 212 families.' },
    label: 'intent=answer',
    expect: {
      anonymous: toLogin('/admin/narratives/{id}/application'),
      user: redirectTo('/admin/narratives/{id}/application#question-1'),
      other: 404,
      admin: redirectTo('/admin/narratives/{id}/application#question-1'),
    },
  },
  // One's own account; a confirmation link that is not the caller's (here: no link at all) is a 400 page.
  { method: 'GET', path: '/account', auth: 'cookie', expect: guardedPage('/account') },
  {
    method: 'GET',
    path: '/account/email?token=not-a-real-token',
    auth: 'cookie',
    expect: signedIn(toLogin('/account/email?token=not-a-real-token'), html(400)),
  },
  {
    method: 'GET',
    path: '/users',
    auth: 'cookie',
    expect: { anonymous: toLogin('/users'), user: html(403), other: html(403), admin: html(200) },
  },
  // Manage Users: its search, its confirmation step (a GET that changes nothing) and its forms.
  {
    method: 'GET',
    path: '/users?q=matrix&page=1&disable={userId}',
    auth: 'cookie',
    expect: { anonymous: toLogin('/users?q=matrix&page=1&disable={userId}'), user: html(403), other: html(403), admin: html(200) },
  },
  {
    method: 'POST',
    path: '/users',
    auth: 'cookie',
    form: { intent: 'invite', email: 'not an email' },
    label: 'intent=invite, invalid',
    expect: { anonymous: toLogin('/users'), user: html(403), other: html(403), admin: html(400) },
  },
  {
    method: 'POST',
    path: '/users',
    auth: 'cookie',
    form: { intent: 'limit', id: '{userId}', dailyLimit: '7' },
    label: 'intent=limit',
    expect: { anonymous: toLogin('/users'), user: html(403), other: html(403), admin: redirectTo('/users') },
  },
  // Page actions (form posts) on the owner's narrative.
  {
    method: 'POST',
    path: '/admin/narratives/{id}',
    auth: 'cookie',
    form: VALID_SAVE,
    expect: {
      anonymous: toLogin('/admin/narratives/{id}'),
      // Back to the saved narrative, where focus lands.
      user: redirectTo('/admin/narratives/{id}#narrative'),
      other: 404,
      admin: redirectTo('/admin/narratives/{id}#narrative'),
    },
  },
  {
    method: 'POST',
    path: '/admin/narratives/{id}',
    auth: 'cookie',
    form: { intent: 'stage', stage: 'in_review' },
    label: 'intent=stage',
    expect: {
      anonymous: toLogin('/admin/narratives/{id}'),
      user: redirectTo('/admin/narratives/{id}#stage'),
      other: 404,
      admin: redirectTo('/admin/narratives/{id}#stage'),
    },
  },
  {
    method: 'POST',
    path: '/dashboard',
    auth: 'cookie',
    form: { intent: 'stop', id: '{id}' },
    label: 'intent=stop',
    // Stopping reports {stopped: false} for anything not running under the caller's name.
    expect: guardedPage('/dashboard'),
  },
  {
    method: 'POST',
    path: '/dashboard',
    auth: 'cookie',
    form: { intent: 'generate', company: '' },
    label: 'intent=generate, invalid',
    expect: signedIn(toLogin('/dashboard'), html(400)),
  },

  // Funder briefs: their owner's alone, an administrator's too (docs/decisions/030).
  { method: 'GET', path: '/funders', auth: 'cookie', expect: guardedPage('/funders') },
  { method: 'GET', path: '/funders/{funderId}', auth: 'cookie', expect: ownBrief(toLogin('/funders/{funderId}'), html(200)) },
  {
    method: 'POST',
    path: '/funders/{funderId}',
    auth: 'cookie',
    form: { intent: 'save', name: '' },
    label: 'intent=save, invalid',
    expect: ownBrief(toLogin('/funders/{funderId}'), html(400)),
  },
  {
    method: 'POST',
    path: '/funders/{funderId}',
    auth: 'cookie',
    form: { intent: 'move', index: '0', direction: 'sideways', priority: 'Youth access' },
    label: 'intent=move, invalid',
    expect: ownBrief(toLogin('/funders/{funderId}'), html(400)),
  },

  // ---- Public pages: open to everyone; signed-in people are sent on from sign-in and sign-up.
  { method: 'GET', path: '/login', auth: 'cookie', expect: signedIn(html(200), redirectTo('/dashboard')) },
  { method: 'GET', path: '/signup', auth: 'cookie', expect: signedIn(html(200), redirectTo('/dashboard')) },
  { method: 'GET', path: '/forgot-password', auth: 'cookie', expect: all(html(200)) },
  // Without a (valid) token the reset and invitation pages render their "invalid link" state as a 400.
  { method: 'GET', path: '/welcome', auth: 'cookie', expect: all(html(400)) },
  { method: 'GET', path: '/welcome?token=not-a-real-token', auth: 'cookie', expect: all(html(400)) },
  {
    method: 'POST',
    path: '/welcome',
    auth: 'cookie',
    form: { token: 'not-a-real-token', newPassword: 'a new password', confirmPassword: 'a new password', acceptTerms: 'on' },
    expect: all(html(400)),
  },
  { method: 'GET', path: '/reset-password', auth: 'cookie', expect: all(html(400)) },
  { method: 'GET', path: '/reset-password?token=not-a-real-token', auth: 'cookie', expect: all(html(400)) },
  { method: 'GET', path: '/terms', auth: 'cookie', expect: all(html(200)) },
  { method: 'GET', path: '/privacy-policy', auth: 'cookie', expect: all(html(200)) },
  { method: 'GET', path: '/copyright-policy', auth: 'cookie', expect: all(html(200)) },
  { method: 'GET', path: '/email-consent', auth: 'cookie', expect: all(html(200)) },
  { method: 'GET', path: '/', auth: 'cookie', expect: signedIn(html(200), redirectTo('/dashboard')) },
  { method: 'GET', path: '/create-narrative', auth: 'cookie', expect: all(redirectTo('/dashboard')) },
  { method: 'GET', path: '/no-such-page/anywhere', auth: 'cookie', expect: all(redirectTo('/')) },
  // GET never logs out (no GET changes state).
  { method: 'GET', path: '/logout', auth: 'cookie', expect: all(redirectTo('/')) },

  // Public form posts (pages): the same answer whoever sends them.
  // (Signed in, the page's loader sends the person on to /dashboard after the failed action.)
  {
    method: 'POST',
    path: '/login',
    auth: 'cookie',
    form: { email: 'nobody-{actor}@example.org', password: 'wrong password' },
    expect: signedIn(html(401), redirectTo('/dashboard')),
  },
  {
    method: 'POST',
    path: '/signup',
    auth: 'cookie',
    form: { email: 'not an email' },
    expect: signedIn(html(400), redirectTo('/dashboard')),
  },
  { method: 'POST', path: '/forgot-password', auth: 'cookie', form: { email: 'nobody-page-{actor}@example.org' }, expect: all(html(200)) },
  {
    method: 'POST',
    path: '/reset-password',
    auth: 'cookie',
    form: { token: 'not-a-real-token', newPassword: 'a new password', confirmPassword: 'a new password' },
    expect: all(html(400)),
  },

  // ---- Resource routes (cookie).
  { method: 'GET', path: '/resources/healthcheck', auth: 'cookie', expect: all(200) },
  {
    method: 'GET',
    path: '/resources/narratives/{id}/docx',
    auth: 'cookie',
    expect: ownedPage('/resources/narratives/{id}/docx', { status: 200, type: DOCX }),
  },
  {
    method: 'GET',
    path: '/resources/account/export',
    auth: 'cookie',
    expect: signedIn(toLogin('/resources/account/export'), { status: 200, type: /^application\/json/ }),
  },
  {
    method: 'GET',
    path: '/resources/generations/{id}',
    auth: 'cookie',
    expect: ownedPage('/resources/generations/{id}', { status: 200, type: SSE }),
  },

  // ---- Token API (bearer).
  { method: 'GET', path: '/auth/profile', auth: 'bearer', expect: signedIn(401, 200) },
  { method: 'GET', path: '/api/funders', auth: 'bearer', expect: signedIn(401, 200) },
  { method: 'GET', path: '/api/funders/{funderId}', auth: 'bearer', expect: ownBrief(401, 200) },
  { method: 'PUT', path: '/api/funders/{funderId}', auth: 'bearer', json: { maxWords: 300 }, expect: ownBrief(401, 200) },
  {
    method: 'POST',
    path: '/api/funders/extract',
    auth: 'bearer',
    json: { text: 'Priorities: food security.' },
    expect: signedIn(401, 200),
  },
  // A wrong method is an API error like any other: 405 {error}. Logging out is a POST, so a GET revokes
  // nothing (the tokens are used by the rows below).
  { method: 'GET', path: '/auth/logout', auth: 'bearer', expect: all(405) },
  { method: 'POST', path: '/auth/profile', auth: 'bearer', json: {}, expect: all(405) },
  // One's own account: every call needs the caller's token and acts on the caller alone (an empty body is a 400).
  { method: 'GET', path: '/auth/profile/export', auth: 'bearer', expect: signedIn(401, 200) },
  { method: 'POST', path: '/auth/profile/calendar', auth: 'bearer', json: {}, expect: signedIn(401, 200) },
  // A calendar address is its own credential: a session, anyone's, opens no feed with a wrong signature.
  {
    method: 'GET',
    path: '/resources/calendar/{userId}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics',
    auth: 'cookie',
    expect: all(404),
  },
  { method: 'PATCH', path: '/auth/profile', auth: 'bearer', json: {}, expect: signedIn(401, 400) },
  { method: 'DELETE', path: '/auth/profile', auth: 'bearer', json: {}, expect: signedIn(401, 400) },
  { method: 'POST', path: '/auth/profile/email', auth: 'bearer', json: {}, expect: signedIn(401, 400) },
  { method: 'POST', path: '/auth/profile/email/confirm', auth: 'bearer', json: { token: 'not-a-real-token' }, expect: signedIn(401, 400) },
  { method: 'POST', path: '/auth/profile/password', auth: 'bearer', json: {}, expect: signedIn(401, 400) },
  { method: 'GET', path: '/auth/', auth: 'bearer', expect: { anonymous: 401, user: 403, other: 403, admin: 200 } },
  { method: 'GET', path: '/auth/?q=matrix&page=1&limit=5', auth: 'bearer', expect: { anonymous: 401, user: 403, other: 403, admin: 200 } },
  // {userId} is `other`: a member may not change even their own account.
  {
    method: 'PATCH',
    path: '/auth/users/{userId}',
    auth: 'bearer',
    json: { dailyLimit: 9 },
    expect: { anonymous: 401, user: 403, other: 403, admin: 200 },
  },
  {
    method: 'PATCH',
    path: '/auth/users/no-such-user',
    auth: 'bearer',
    json: { dailyLimit: 9 },
    expect: { anonymous: 401, user: 403, other: 403, admin: 404 },
  },
  { method: 'GET', path: '/auth/users/{userId}', auth: 'bearer', expect: all(405) },
  { method: 'POST', path: '/auth/users/{userId}', auth: 'bearer', json: { dailyLimit: 9 }, expect: all(405) },
  // Public account endpoints answer the same whoever calls them.
  {
    method: 'POST',
    path: '/auth/login',
    auth: 'bearer',
    json: { email: 'nobody@example.org', password: 'wrong password' },
    expect: all(401),
  },
  {
    method: 'POST',
    path: '/auth/register',
    auth: 'bearer',
    json: { email: EMAILS.user, firstName: 'Dup', lastName: 'Licate', password: PASSWORD, confirmPassword: PASSWORD },
    expect: all(409),
  },
  { method: 'POST', path: '/auth/forgot-password', auth: 'bearer', json: { email: 'nobody-{actor}@example.org' }, expect: all(200) },
  { method: 'GET', path: '/auth/verify-reset-token?token=not-a-real-token', auth: 'bearer', expect: all(400) },
  {
    method: 'POST',
    path: '/auth/reset-password',
    auth: 'bearer',
    json: { token: 'not-a-real-token', newPassword: 'a new password' },
    expect: all(400),
  },
  { method: 'GET', path: '/api/narrative', auth: 'bearer', expect: signedIn(401, 200) },
  { method: 'POST', path: '/api/narrative', auth: 'bearer', json: NARRATIVE, expect: signedIn(401, 201) },
  { method: 'GET', path: '/api/narrative/{id}', auth: 'bearer', expect: ownedApi() },
  { method: 'PUT', path: '/api/narrative/{id}', auth: 'bearer', json: { generatedNarrative: 'Put through the API.' }, expect: ownedApi() },
  { method: 'PATCH', path: '/api/narrative/{id}', auth: 'bearer', json: { stage: 'submitted' }, expect: ownedApi() },
  // The application of a narrative written for a brief; one written for none has no application.
  { method: 'GET', path: '/api/narrative/{id}/application', auth: 'bearer', target: 'application', expect: ownedApi() },
  { method: 'GET', path: '/api/narrative/{id}/application', auth: 'bearer', label: 'no brief', expect: signedIn(401, 404) },
  {
    method: 'GET',
    path: '/api/narrative/{id}/application/docx',
    auth: 'bearer',
    target: 'application',
    expect: ownedApi({ status: 200, type: DOCX }),
  },
  { method: 'GET', path: '/api/narrative/{id}/application/pdf', auth: 'bearer', label: 'no brief', expect: signedIn(401, 404) },
  {
    method: 'PUT',
    path: '/api/narrative/{id}/application/questions/0',
    auth: 'bearer',
    target: 'application',
    json: { text: 'Fresh food for 212 families.' },
    expect: ownedApi(),
  },
  { method: 'GET', path: '/api/narrative/{id}/docx', auth: 'bearer', expect: ownedApi({ status: 200, type: DOCX }) },
  { method: 'POST', path: '/api/narrative/generate', auth: 'bearer', json: { company: '' }, expect: signedIn(401, 400) },
  // An id that exists nowhere reads like a foreign one.
  { method: 'GET', path: '/api/narrative/no-such-id', auth: 'bearer', expect: signedIn(401, 404) },
  { method: 'GET', path: '/admin/narratives/no-such-id', auth: 'cookie', expect: signedIn(toLogin('/admin/narratives/no-such-id'), 404) },

  // ---- Destructive rows last, each actor on a narrative of its own (owned by `user`).
  { method: 'DELETE', path: '/api/narrative/{id}', auth: 'bearer', target: 'apiDelete', expect: ownedApi() },
  {
    method: 'POST',
    path: '/admin/narratives?index',
    auth: 'cookie',
    target: 'indexDelete',
    form: { intent: 'delete', id: '{id}' },
    // The guard builds the way back from React Router's url, which has no ?index marker: the list itself.
    expect: { anonymous: toLogin('/admin/narratives'), user: 200, other: 404, admin: 200 },
  },
  {
    method: 'POST',
    path: '/admin/narratives/{id}/delete',
    auth: 'cookie',
    target: 'pageDelete',
    // docs/security.md#access-control: a miss is 404, as for the list's delete and the detail page's save.
    expect: {
      anonymous: toLogin('/admin/narratives/{id}/delete'),
      user: redirectTo('/admin/narratives'),
      other: 404,
      admin: redirectTo('/admin/narratives'),
    },
  },
  { method: 'POST', path: '/logout', auth: 'fresh-cookie', expect: all(redirectTo('/login')) },
  { method: 'POST', path: '/auth/logout', auth: 'fresh-bearer', expect: signedIn(401, 200) },
]

let app: AppServer
const cookies: Record<Actor, string> = { anonymous: '', user: '', other: '', admin: '' }
const tokens: Record<Actor, string> = { anonymous: '', user: '', other: '', admin: '' }
let sharedId = ''
/** `other`'s account: the one the operator-control rows change. */
let otherUserId = ''
/** The owner's funder brief. */
let funderId = ''
/** The owner's narrative written for that brief: an application, with one question. */
let applicationId = ''
const targets: Record<Exclude<Target, 'shared' | 'application'>, Record<Actor, string>> = {
  apiDelete: { anonymous: '', user: '', other: '', admin: '' },
  pageDelete: { anonymous: '', user: '', other: '', admin: '' },
  indexDelete: { anonymous: '', user: '', other: '', admin: '' },
}

async function cookieLogin(email: string): Promise<string> {
  const response = await fetch(`${app.origin}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: PASSWORD }),
    redirect: 'manual',
  })
  await response.body?.cancel()
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='))
  if (response.status !== 302 || !session) throw new Error(`login ${email}: ${response.status}`)
  return session.split(';')[0]
}

async function apiLogin(email: string): Promise<string> {
  const response = await fetch(`${app.origin}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  if (response.status !== 200) throw new Error(`api login ${email}: ${response.status}`)
  return ((await response.json()) as { token: string }).token
}

async function createNarrative(token: string, overrides: Partial<typeof NARRATIVE> & { funderId?: string } = {}): Promise<string> {
  const response = await fetch(`${app.origin}/api/narrative`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...NARRATIVE, ...overrides }),
  })
  if (response.status !== 201) throw new Error(`create narrative: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: { id: string } }).data.id
}

beforeAll(async () => {
  app = await startAppServer()
  // The first account becomes the administrator.
  tokens.admin = await registerOverHttp(app.origin, EMAILS.admin, PASSWORD)
  tokens.user = await registerOverHttp(app.origin, EMAILS.user, PASSWORD)
  tokens.other = await registerOverHttp(app.origin, EMAILS.other, PASSWORD)
  for (const actor of SIGNED_IN) cookies[actor] = await cookieLogin(EMAILS[actor])
  sharedId = await createNarrative(tokens.user, { company: 'Matrix Shared Narrative' })
  const profile = await fetch(`${app.origin}/auth/profile`, { headers: { Authorization: `Bearer ${tokens.other}` } })
  otherUserId = ((await profile.json()) as { id: string }).id
  const brief = await fetch(`${app.origin}/api/funders`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.user}` },
    body: JSON.stringify({
      name: 'Matrix Fund',
      callText: 'Priorities: food security.',
      questions: [{ text: 'What will the grant pay for?', maxWords: 100 }],
    }),
  })
  funderId = ((await brief.json()) as { data: { id: string } }).data.id
  applicationId = await createNarrative(tokens.user, { company: 'Matrix Application', funderId })
  for (const target of Object.values(targets)) {
    for (const actor of ACTORS) target[actor] = await createNarrative(tokens.user, { company: `Matrix target ${actor}` })
  }
})

afterAll(async () => {
  await app?.stop()
  if (app) fs.rmSync(app.dataDir, { recursive: true, force: true })
})

describe('the actors', () => {
  it('are who the matrix assumes: the first account is the admin, the others are not', async () => {
    for (const actor of SIGNED_IN) {
      const response = await fetch(`${app.origin}/auth/profile`, { headers: { Authorization: `Bearer ${tokens[actor]}` } })
      const profile = (await response.json()) as { email: string; isAdmin: boolean }
      expect(profile).toMatchObject({ email: EMAILS[actor], isAdmin: actor === 'admin' })
    }
  })
})

type Case = Row & { actor: Actor; cell: Expect; name: string }

const CASES: Case[] = ROWS.flatMap((row) =>
  ACTORS.map((actor) => {
    const raw = row.expect[actor]
    const cell = typeof raw === 'number' ? { status: raw } : raw
    return { ...row, actor, cell, name: `${row.method} ${row.path}${row.label ? ` (${row.label})` : ''} as ${actor}` }
  }),
)

async function runCase({ method, path, auth, form, json, target = 'shared', actor, cell }: Case, targetIds = targets) {
  const id = target === 'shared' ? sharedId : target === 'application' ? applicationId : targetIds[target][actor]
  const fill = (text: string) =>
    text.replaceAll('{id}', id).replaceAll('{userId}', otherUserId).replaceAll('{funderId}', funderId).replaceAll('{actor}', actor)
  const headers = new Headers()
  if (actor !== 'anonymous') {
    if (auth === 'cookie') headers.set('Cookie', cookies[actor])
    if (auth === 'bearer') headers.set('Authorization', `Bearer ${tokens[actor]}`)
    if (auth === 'fresh-cookie') headers.set('Cookie', await cookieLogin(EMAILS[actor]))
    if (auth === 'fresh-bearer') headers.set('Authorization', `Bearer ${await apiLogin(EMAILS[actor])}`)
  }
  let body: string | undefined
  if (form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded')
    body = new URLSearchParams(Object.fromEntries(Object.entries(form).map(([key, value]) => [key, fill(value)]))).toString()
  } else if (json !== undefined) {
    headers.set('Content-Type', 'application/json')
    body = fill(JSON.stringify(json))
  } else if (method === 'POST') {
    headers.set('Content-Type', 'application/x-www-form-urlencoded')
    body = ''
  }
  const response = await fetch(`${app.origin}${fill(path)}`, { method, headers, body, redirect: 'manual' })
  const type = response.headers.get('Content-Type') ?? ''
  // The event stream stays open while a generation runs: read only its headers.
  const text = SSE.test(type) || DOCX.test(type) ? (await response.body?.cancel(), '') : await response.text()

  const location =
    cell.loginFor === undefined ? cell.location && fill(cell.location) : `/login?redirectTo=${encodeURIComponent(fill(cell.loginFor))}`
  expect({ status: response.status, location: response.headers.get('Location') }).toMatchObject({
    status: cell.status,
    ...(location === undefined ? {} : { location }),
  })
  if (cell.type) expect(type).toMatch(cell.type)
  // The token API answers errors as {error}, never a page or a stack trace.
  if ((path.startsWith('/api/') || path.startsWith('/auth/')) && response.status >= 400) {
    expect(type).toMatch(/^application\/json/)
    expect(JSON.parse(text)).toEqual(expect.objectContaining({ error: expect.any(String) }))
  }
  return { response, text }
}

describe('access matrix: every page, resource route and API endpoint × actor', () => {
  for (const testCase of CASES) {
    const { status, location, loginFor } = testCase.cell
    const expected = `${status}${loginFor ? ` → /login (back to ${loginFor})` : location ? ` → ${location}` : ''}`
    it(`${testCase.name}: ${expected}`, () => runCase(testCase).then(() => undefined))
  }
})

describe('what the matrix implies', () => {
  const ownerView = async (id: string) => {
    const response = await fetch(`${app.origin}/api/narrative/${id}`, { headers: { Authorization: `Bearer ${tokens.user}` } })
    return { status: response.status, body: (await response.json()) as { data?: { generatedNarrative: string; company: string } } }
  }

  it("leaves the owner's narratives in place after another user's PUT, DELETE and page deletes", async () => {
    // Narratives of its own, each the target of one actor's delete, so no other test's order matters.
    const mine = Object.fromEntries(
      await Promise.all(
        Object.keys(targets).map(async (target) => [
          target,
          Object.fromEntries(await Promise.all(ACTORS.map(async (actor) => [actor, await createNarrative(tokens.user)]))),
        ]),
      ),
    ) as typeof targets
    for (const testCase of CASES.filter((testCase) => testCase.target && testCase.target !== 'shared')) await runCase(testCase, mine)
    for (const target of Object.values(mine)) expect((await ownerView(target.other)).status).toBe(200)
    expect((await ownerView(mine.apiDelete.anonymous)).status).toBe(200)
    expect((await ownerView(mine.pageDelete.anonymous)).status).toBe(200)
    expect((await ownerView(mine.indexDelete.anonymous)).status).toBe(200)
    // The owner's and the admin's deletes did delete.
    for (const actor of ['user', 'admin'] as const) {
      for (const target of Object.values(mine)) expect((await ownerView(target[actor])).status).toBe(404)
    }
  })

  it('never shows a foreign narrative through the dashboard ?from= or ?narrative= parameters', async () => {
    for (const query of [`from=${sharedId}`, `narrative=${sharedId}`]) {
      const own = await fetch(`${app.origin}/dashboard?${query}`, { headers: { Cookie: cookies.user } }).then((r) => r.text())
      const foreign = await fetch(`${app.origin}/dashboard?${query}`, { headers: { Cookie: cookies.other } }).then((r) => r.text())
      if (query.startsWith('from=')) expect(own).toContain('Matrix Shared Narrative')
      expect(foreign).not.toContain('Matrix Shared Narrative')
      expect(foreign).not.toContain('maria@matrix.example.org')
    }
  })

  it("shows other users' narratives (with their owners) only to the admin in the list", async () => {
    const list = async (actor: Actor) => {
      const response = await fetch(`${app.origin}/api/narrative?limit=100`, { headers: { Authorization: `Bearer ${tokens[actor]}` } })
      return ((await response.json()) as { data: { id: string }[] }).data.map((row) => row.id)
    }
    expect(await list('user')).toContain(sharedId)
    expect(await list('admin')).toContain(sharedId)
    expect(await list('other')).not.toContain(sharedId)
    const page = await fetch(`${app.origin}/admin/narratives`, { headers: { Cookie: cookies.other } }).then((r) => r.text())
    expect(page).not.toContain('Matrix Shared Narrative')
  })
})

describe('credentials are not interchangeable', () => {
  it('does not accept a cookie session as an API credential', async () => {
    for (const actor of SIGNED_IN) {
      const response = await fetch(`${app.origin}/api/narrative`, { headers: { Cookie: cookies[actor] } })
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ error: expect.any(String) })
    }
  })

  it('does not accept a bearer token on pages or resource routes', async () => {
    for (const actor of SIGNED_IN) {
      for (const path of ['/dashboard', `/admin/narratives/${sharedId}`, `/resources/narratives/${sharedId}/docx`]) {
        const response = await fetch(`${app.origin}${path}`, { headers: { Authorization: `Bearer ${tokens[actor]}` }, redirect: 'manual' })
        await response.body?.cancel()
        expect(response.status).toBe(302)
        expect(response.headers.get('Location')).toBe(`/login?redirectTo=${encodeURIComponent(path)}`)
      }
    }
  })

  it('ignores a token in the query string', async () => {
    const response = await fetch(`${app.origin}/api/narrative?token=${encodeURIComponent(tokens.user)}`)
    expect(response.status).toBe(401)
    const alt = await fetch(`${app.origin}/auth/profile?access_token=${encodeURIComponent(tokens.user)}`)
    expect(alt.status).toBe(401)
  })

  it('does not take the cookie value as a bearer token, nor a bearer token as a cookie', async () => {
    const cookieValue = decodeURIComponent(cookies.user.slice('__session='.length))
    const asBearer = await fetch(`${app.origin}/auth/profile`, { headers: { Authorization: `Bearer ${cookieValue}` } })
    expect(asBearer.status).toBe(401)
    const asCookie = await fetch(`${app.origin}/dashboard`, { headers: { Cookie: `__session=${tokens.user}` }, redirect: 'manual' })
    await asCookie.body?.cancel()
    expect(asCookie.status).toBe(302)
  })
})

describe('no GET changes the database (docs/security.md: "no GET changes state")', () => {
  it('leaves every row of every table as it was after every GET of the matrix, as every actor', async () => {
    // With PostgreSQL, a replica's heartbeat rewrites its row every 2 s, an open event stream holds a row
    // until a moment after it closes, and a download counts against its person's 30 a minute (RateLimit):
    // bookkeeping of the processes and of abuse limits, not state a request changes.
    const dump = () => dumpAppDatabase(app, { except: ['Replica', 'OpenStream', 'RateLimit'] })
    const before = await dump()
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['User', 'Session', 'Narrative', 'PasswordReset']))
    expect(before.Narrative.length).toBeGreaterThan(0)
    const gets = CASES.filter((testCase) => testCase.method === 'GET')
    expect(gets.length).toBeGreaterThan(100)
    for (const testCase of gets) await runCase(testCase)
    expect(await dump()).toEqual(before)
  })
})
