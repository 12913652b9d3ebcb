import fs from 'node:fs'
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai'
import { linesOfRequest, logLines } from '../setup/app-logs'
import { until } from '../setup/until'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { appDatabaseKind, onAppDatabase } from '../setup/app-database'
import { refuseUpdatesSql } from '../setup/db'
import { freePort } from '../setup/postgres'
import { asFormFields, FULL_INPUT } from '../setup/narrative-input'

// What the pages and answers of the BUILT app show, over real HTTP (docs/security.md: "Input, output,
// headers" and "Quota and the model"): a request id on error pages, Cache-Control: no-store on
// private answers, and no key or secret anywhere in a page, an answer or an error.
//
// The app runs with distinctive secrets, the fake model (the real `openai` SDK talks to it), and an
// SMTP_URL whose password is one of the secrets and whose port nothing listens on: every mail fails.
// The file's server errors (500) come from the database: a trigger refuses one particular text.

const SECRETS = {
  OPENAI_API_KEY: 'sk-canary0openai0key0d41d8cd98f00b204e9800998ecf8427e',
  SESSION_SECRET: 'canary0session0secret0a87ff679a2f3e71d9181a67b7542122c',
  SMTP_PASSWORD: 'canary0smtp0password0e4da3b7fbbce2345d7772b0674a318d',
}

const PASSWORD = 'pages password 1'
const FAILING_TEXT = 'A text the database refuses.'
const EMAILS = { admin: 'pages-admin@example.org', user: 'pages-user@example.org' }
const REQUEST_ID = /Request id: <code[^>]*>([^<]*)<\/code>/

type Actor = 'anonymous' | 'user' | 'admin'
type Answer = { url: string; status: number; headers: Headers; text: string }

let app: AppServer
let model: FakeOpenAI
const cookies: Record<Actor, string> = { anonymous: '', user: '', admin: '' }
const tokens: Record<Actor, string> = { anonymous: '', user: '', admin: '' }
let narrativeId = ''
/** The secrets an answer shows, in its headers or its body: none, always. */
function leaksOf(answer: Answer) {
  const headers = [...answer.headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n')
  return Object.entries(SECRETS)
    .filter(([, secret]) => headers.includes(secret) || answer.text.includes(secret))
    .map(([name]) => `${name} in ${answer.url}`)
}

async function send(
  path: string,
  {
    actor = 'anonymous',
    auth = 'cookie',
    method = 'GET',
    form,
    json,
    headers = {},
  }: {
    actor?: Actor
    auth?: 'cookie' | 'bearer'
    method?: string
    form?: Record<string, string>
    json?: unknown
    headers?: Record<string, string>
  } = {},
): Promise<Answer> {
  const all = new Headers(headers)
  if (actor !== 'anonymous' && auth === 'cookie') all.set('Cookie', cookies[actor])
  if (actor !== 'anonymous' && auth === 'bearer') all.set('Authorization', `Bearer ${tokens[actor]}`)
  let body: string | undefined
  if (form) {
    all.set('Content-Type', 'application/x-www-form-urlencoded')
    body = new URLSearchParams(form).toString()
  }
  if (json !== undefined) {
    all.set('Content-Type', 'application/json')
    body = JSON.stringify(json)
  }
  const response = await fetch(`${app.origin}${path}`, { method, headers: all, body, redirect: 'manual' })
  // A Word file is a zip: its compressed bytes are not text worth searching (its text is the narrative's).
  const docx = /wordprocessingml/.test(response.headers.get('Content-Type') ?? '')
  const text = docx ? (await response.body?.cancel(), '') : await response.text()
  const answer = { url: `${method} ${path} as ${actor}`, status: response.status, headers: response.headers, text }
  expect(leaksOf(answer)).toEqual([])
  return answer
}

async function cookieLogin(email: string) {
  const answer = await send('/login', { method: 'POST', form: { email, password: PASSWORD } })
  const session = answer.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='))
  if (answer.status !== 302 || !session) throw new Error(`login ${email}: ${answer.status}`)
  return session.split(';')[0]
}

beforeAll(async () => {
  model = await startFakeOpenAI({ firstTokenDelayMs: 5, pieceIntervalMs: 1 })
  const closedPort = await freePort()
  app = await startAppServer({
    env: {
      OPENAI_API_KEY: SECRETS.OPENAI_API_KEY,
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_TIMEOUT_MS: '2000',
      SESSION_SECRET: SECRETS.SESSION_SECRET,
      SMTP_URL: `smtp://mailer:${SECRETS.SMTP_PASSWORD}@127.0.0.1:${closedPort}`,
    },
  })
  tokens.admin = await registerOverHttp(app.origin, EMAILS.admin, PASSWORD) // the first account: the admin
  tokens.user = await registerOverHttp(app.origin, EMAILS.user, PASSWORD)
  cookies.admin = await cookieLogin(EMAILS.admin)
  cookies.user = await cookieLogin(EMAILS.user)
  const created = await send('/api/narrative', {
    actor: 'user',
    auth: 'bearer',
    method: 'POST',
    json: { ...FULL_INPUT, tone: 'professional', generatedNarrative: 'A saved narrative.' },
  })
  expect(created.status).toBe(201)
  narrativeId = JSON.parse(created.text).data.id
  const statements = refuseUpdatesSql(appDatabaseKind(app), {
    name: 'refuse_text',
    table: 'Narrative',
    column: 'generatedNarrative',
    when: `NEW."generatedNarrative" = '${FAILING_TEXT}'`,
  })
  await onAppDatabase(app, async (query) => {
    for (const statement of statements) await query(statement)
  })
})

// Whatever each test made the app do, and however it failed, its log holds no secret.
afterEach(() => {
  const log = app.logs()
  expect(Object.entries(SECRETS).filter(([, secret]) => log.includes(secret))).toEqual([])
})

afterAll(async () => {
  await app?.stop()
  await model?.close()
  if (app) fs.rmSync(app.dataDir, { recursive: true, force: true })
})

describe('error pages', () => {
  /** The request id the page shows: the one the answer carries, and the one the log has the request under. */
  async function expectRequestIdShown(answer: Answer, status: number, path: string) {
    expect(answer.status).toBe(status)
    expect(answer.headers.get('Content-Type')).toMatch(/^text\/html/)
    const shown = REQUEST_ID.exec(answer.text)?.[1]
    expect(shown).toBe(answer.headers.get('X-Request-Id'))
    const lines = await linesOfRequest(app, shown!)
    expect(lines.find((line) => line.event === 'http.request')).toMatchObject({ path, status })
    return lines
  }

  it('shows the request id on a 500 page, the id the failure was logged under', async () => {
    const answer = await send(`/admin/narratives/${narrativeId}`, {
      actor: 'user',
      method: 'POST',
      form: { intent: 'save', generatedNarrative: FAILING_TEXT },
    })
    const lines = await expectRequestIdShown(answer, 500, `/admin/narratives/${narrativeId}`)
    expect(answer.text).toContain('Failed to load narrative details')
    expect(lines.map((line) => line.event)).toContain('request.error')
  })

  it('shows it on a 404 page and a 403 page too', async () => {
    await expectRequestIdShown(await send('/admin/narratives/no-such-id', { actor: 'user' }), 404, '/admin/narratives/no-such-id')
    await expectRequestIdShown(await send('/users', { actor: 'user' }), 403, '/users')
  })

  it('shows no request id on pages that did not fail', async () => {
    for (const path of ['/login', '/terms']) expect((await send(path)).text).not.toMatch(/Request id/)
    expect((await send('/dashboard', { actor: 'user' })).text).not.toMatch(/Request id/)
  })
})

describe('Cache-Control: no-store on private answers', () => {
  const cacheControl = (answer: Answer) => answer.headers.get('Cache-Control')

  it('is sent with every page and data request of a signed-in person', async () => {
    for (const path of [
      '/dashboard',
      `/admin/narratives/${narrativeId}`,
      '/terms',
      '/dashboard.data',
      `/admin/narratives/${narrativeId}.data`,
    ]) {
      const answer = await send(path, { actor: 'user' })
      expect({ path, status: answer.status, cacheControl: cacheControl(answer) }).toEqual({ path, status: 200, cacheControl: 'no-store' })
    }
    // A signed-in person sent on from a public page: the redirect is theirs too.
    const redirected = await send('/login', { actor: 'user' })
    expect([redirected.status, cacheControl(redirected)]).toEqual([302, 'no-store'])
  })

  it("is sent with the token API's private answers and a new token", async () => {
    for (const path of ['/auth/profile', '/api/narrative', `/api/narrative/${narrativeId}`]) {
      const answer = await send(path, { actor: 'user', auth: 'bearer' })
      expect({ path, status: answer.status, cacheControl: cacheControl(answer) }).toEqual({ path, status: 200, cacheControl: 'no-store' })
    }
    const users = await send('/auth/', { actor: 'admin', auth: 'bearer' })
    expect([users.status, cacheControl(users)]).toEqual([200, 'no-store'])
    const login = await send('/auth/login', { method: 'POST', json: { email: EMAILS.user, password: PASSWORD } })
    expect([login.status, cacheControl(login)]).toEqual([200, 'no-store'])
  })

  it('is sent with both Word downloads', async () => {
    const page = await send(`/resources/narratives/${narrativeId}/docx`, { actor: 'user' })
    const api = await send(`/api/narrative/${narrativeId}/docx`, { actor: 'user', auth: 'bearer' })
    for (const answer of [page, api]) {
      expect(answer.status).toBe(200)
      expect(cacheControl(answer)).toMatch(/\bno-store\b/)
    }
  })

  it('leaves public pages, public errors and static assets as they were', async () => {
    for (const path of ['/login', '/terms', '/signup']) expect(cacheControl(await send(path))).toBeNull()
    expect(cacheControl(await send('/api/narrative'))).toBeNull() // 401: nothing private in it
    const page = await send('/login')
    const script = /(\/assets\/[^"]+\.js)"/.exec(page.text)![1]
    expect(cacheControl(await send(script))).toBe('public, max-age=31536000, immutable')
  })
})

describe('keys never appear in pages, answers or errors', () => {
  /** Same-origin links and assets of a page, without their fragments. */
  function linksOf(html: string): string[] {
    return [...html.matchAll(/(?:href|src)="(\/(?!\/)[^"#]*)/g)].map((match) => match[1].replaceAll('&amp;', '&'))
  }

  /** Follows every same-origin link from the seeds, and asks for each page's data (.data) too. */
  async function crawl(actor: Actor, seeds: string[]) {
    const seen = new Set<string>()
    const queue = [...seeds]
    while (queue.length > 0 && seen.size < 300) {
      const path = queue.shift()!
      if (seen.has(path)) continue
      seen.add(path)
      const answer = await send(path, { actor })
      const location = answer.headers.get('Location')
      if (location?.startsWith('/')) queue.push(location)
      if (!/^text\/html/.test(answer.headers.get('Content-Type') ?? '')) continue
      queue.push(...linksOf(answer.text))
      const [pathname, search] = path.split('?')
      queue.push(`${pathname === '/' ? '/_' : pathname}.data${search ? `?${search}` : ''}`)
    }
    return seen
  }

  it('crawls every page as anonymous visitor, user and administrator', async () => {
    const seeds = [
      '/',
      '/login',
      '/signup',
      '/forgot-password',
      '/reset-password?token=not-a-real-token',
      '/terms',
      '/privacy-policy',
      '/copyright-policy',
      '/email-consent',
      '/dashboard',
      `/dashboard?from=${narrativeId}`,
      `/dashboard?narrative=${narrativeId}`,
      '/admin/narratives',
      `/admin/narratives/${narrativeId}`,
      `/admin/narratives/${narrativeId}?edit=1`,
      `/admin/narratives/${narrativeId}/delete`,
      '/users',
      '/resources/healthcheck',
      `/resources/narratives/${narrativeId}/docx`,
      `/resources/generations/${narrativeId}`,
      '/no-such-page',
    ]
    for (const actor of ['anonymous', 'user', 'admin'] as const) {
      const seen = await crawl(actor, seeds)
      expect(seen.size).toBeGreaterThan(seeds.length)
    }
    for (const actor of ['anonymous', 'user', 'admin'] as const) {
      for (const path of [
        '/auth/profile',
        '/auth/',
        '/api/narrative',
        `/api/narrative/${narrativeId}`,
        `/api/narrative/${narrativeId}/docx`,
        '/auth/verify-reset-token?token=x',
      ]) {
        await send(path, { actor, auth: 'bearer' })
      }
    }
  })

  it('goes through failing model calls (429 retried to the end, 500, a dropped stream) on the API and the page', async () => {
    // Two generations of one person may run at once: the user's two, and the admin's one.
    const generate = (actor: Actor, marker: string) =>
      send('/api/narrative/generate', {
        actor,
        auth: 'bearer',
        method: 'POST',
        json: { ...FULL_INPUT, missionStatement: `${FULL_INPUT.missionStatement} ${marker}` },
      })
    const streams = await Promise.all([
      generate('user', '[[fake:429]]'),
      generate('user', '[[fake:500]]'),
      generate('admin', '[[fake:drop]]'),
    ])
    for (const stream of streams) {
      expect(stream.status).toBe(200)
      expect(stream.text).toMatch(/^event: error$/m)
    }
    // Without JavaScript the page waits for the generation, then shows the saved (failed) record.
    const page = await send('/dashboard', {
      actor: 'user',
      method: 'POST',
      form: { intent: 'generate', ...asFormFields({ ...FULL_INPUT, missionStatement: 'Page [[fake:drop]]' }) },
    })
    expect(page.status).toBe(302)
    expect((await send(page.headers.get('Location')!, { actor: 'user' })).status).toBe(200)
    // The administrator's list has everyone's narratives.
    const list = await send('/api/narrative?limit=50', { actor: 'admin', auth: 'bearer' })
    const failed = JSON.parse(list.text).data.filter((row: { status: string }) => row.status === 'failed')
    expect(failed).toHaveLength(4)
    for (const row of failed) {
      await send(`/api/narrative/${row.id}`, { actor: 'admin', auth: 'bearer' })
      await send(`/admin/narratives/${row.id}`, { actor: 'admin' })
      await send(`/resources/generations/${row.id}`, { actor: 'admin' })
    }
    expect(model.counts['429']).toBe(4) // the first call and three retries
    // The log did record the failures, so the check after each test looked at them.
    expect(logLines(app).map((line) => line.event)).toContain('generation.failed')
  })

  it('goes through a failing mail server, on the page and the API, and a database error', async () => {
    // The mail goes after the answer: the answer is the usual one, and the failure is logged.
    expect((await send('/forgot-password', { method: 'POST', form: { email: EMAILS.admin } })).status).toBe(200)
    expect((await send('/auth/forgot-password', { method: 'POST', json: { email: EMAILS.admin } })).status).toBe(200)
    await until(() => app.logs().includes('"event":"auth.reset_mail_failed"'), { what: 'the failed mail logged', details: app.logs })
    const api = await send(`/api/narrative/${narrativeId}`, {
      actor: 'user',
      auth: 'bearer',
      method: 'PUT',
      json: { generatedNarrative: FAILING_TEXT },
    })
    expect(api.status).toBe(500)
    expect(JSON.parse(api.text).details.requestId).toBe(api.headers.get('X-Request-Id'))
    expect(logLines(app).map((line) => line.event)).toContain('api.error')
  })

  it('goes through refused API calls', async () => {
    expect((await send('/api/narrative', { headers: { Authorization: 'Bearer not-a-token' } })).status).toBe(401)
    expect((await send('/api/narrative', { actor: 'user', auth: 'bearer', method: 'POST', json: {} })).status).toBe(400)
    expect(
      (await send('/api/narrative', { actor: 'user', auth: 'bearer', method: 'POST', headers: { 'Content-Type': 'text/plain' } })).status,
    ).toBe(415)
    expect((await send('/auth/profile', { actor: 'user', auth: 'bearer', method: 'PUT' })).status).toBe(405)
    expect((await send('/auth/', { actor: 'user', auth: 'bearer' })).status).toBe(403)
  })
})
