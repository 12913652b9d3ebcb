import { startAppServer, type AppServer } from '../setup/app-server'
import { startNginx, type Nginx } from '../setup/nginx'
import { FULL_INPUT } from '../setup/narrative-input'
import { makeApiUser, PASSWORD } from '../setup/users'
import { resetDatabase } from '../setup/db'
import { logLines, type LogLine } from '../setup/app-logs'
import { readEvents, textOf } from '../setup/sse'
import { until } from '../setup/until'
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai'
import { prisma } from '~/server/platform/db.server'
import { RATE_LIMITS } from '~/server/edge/limits.server'

// PostgreSQL, three built replicas and Debian's nginx with the site configuration compose.yaml uses,
// all on loopback: what a person reaching the site sees, wherever nginx sends each request
// (docs/decisions/038). On PostgreSQL alone (TEST_DATABASE=postgres).

const INSTANCE_LIMIT = 25
let apps: AppServer[] = []
let nginx: Nginx
let fake: FakeOpenAI

beforeAll(async () => {
  // About 10 s of writing a narrative, unless its mission says [[fake:delay=0]].
  fake = await startFakeOpenAI({ firstTokenDelayMs: 20, pieceIntervalMs: 25 })
  apps = await Promise.all(
    [0, 1, 2].map(() =>
      startAppServer({
        env: {
          DATABASE_URL: process.env.DATABASE_URL!,
          OPENAI_BASE_URL: fake.baseURL,
          OPENAI_API_KEY: 'x',
          MAX_DAILY_GENERATIONS: String(INSTANCE_LIMIT),
          DAILY_NARRATIVE_LIMIT: '10',
          TRUST_PROXY: '1',
        },
      }),
    ),
  )
  nginx = await startNginx(apps.map((app) => app.port))
}, 120_000)

// CI runs these tests in an order of its own: each starts from an empty database, so with nothing counted
// today, and once every replica has beaten itself back in.
beforeEach(async () => {
  await vi.waitUntil(async () => (await prisma.narrative.count({ where: { status: 'generating' } })) === 0, { timeout: 30_000 })
  await resetDatabase()
  await vi.waitUntil(async () => (await prisma.replica.count()) === apps.length, { timeout: 10_000, interval: 100 })
})

afterAll(async () => {
  await nginx?.stop()
  await Promise.all(apps.map((app) => app.stop()))
  await fake?.close()
})

const generate = (token: string, input = FULL_INPUT) =>
  fetch(`${nginx.origin}/api/narrative/generate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  })

async function signIn(email: string) {
  const answer = await fetch(`${nginx.origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: PASSWORD }),
  })
  expect(answer.status).toBe(302)
  return answer.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

/** What the replicas and nginx logged as errors, to say why a test failed. */
const errorsLogged = () =>
  [
    ...apps.flatMap((app) => logLines(app).filter((line) => line.level === 'error')).map((line) => JSON.stringify(line)),
    nginx.errorLog(),
  ].join('\n')
const eventsLogged = (event: string) =>
  apps.flatMap((app) => logLines(app).filter((line) => line.event === event)).map((line) => JSON.stringify(line))
const countBy = (values: string[]) =>
  Object.fromEntries([...new Set(values)].map((value) => [value, values.filter((v) => v === value).length]))
const logged = (app: AppServer, match: (line: LogLine) => boolean) => logLines(app).some(match)
/** Which replicas logged a request for `path`. */
const servedBy = (path: string) => apps.filter((app) => logged(app, (line) => line.event === 'http.request' && line.path === path))

it('nginx names no version of itself, in its Server header or on its own error pages', async () => {
  const page = await fetch(`${nginx.origin}/resources/healthcheck`)
  expect(page.status).toBe(200)
  expect(page.headers.get('Server')).toBe('nginx')
  // Over its body limit: an answer nginx writes itself.
  const refused = await fetch(`${nginx.origin}/signup`, { method: 'POST', body: Buffer.alloc(8 * 1024 * 1024) })
  expect(refused.status).toBe(413)
  expect(refused.headers.get('Server')).toBe('nginx')
  expect(await refused.text()).not.toMatch(/nginx\//)
})

it(`lets exactly ${INSTANCE_LIMIT} of 60 people starting at once through`, async () => {
  const users = await Promise.all(Array.from({ length: 60 }, (_, i) => makeApiUser({ email: `starter${i}@example.org` })))
  const quick = { ...FULL_INPUT, missionStatement: `${FULL_INPUT.missionStatement} [[fake:delay=0]]` }
  const answers = await Promise.all(
    users.map(async ({ token }) => {
      const answer = await generate(token, quick)
      if (answer.status === 200) await answer.body?.cancel()
      return { status: answer.status, body: answer.status === 200 ? '' : await answer.text() }
    }),
  )
  const tally = countBy(answers.map(({ status }) => String(status)))
  // Should it fail: each refusal's words, the replicas' own reasons, and every error logged.
  const why = [JSON.stringify(countBy(answers.map(({ body }) => body))), ...eventsLogged('quota.refused'), errorsLogged()].join('\n')
  expect(tally, why).toEqual({ 200: INSTANCE_LIMIT, 429: 60 - INSTANCE_LIMIT })
  // Every replica took some: nginx shared them out.
  expect(apps.every((app) => logLines(app).some((line) => line.event === 'generation.started'))).toBe(true)
}, 120_000)

it('a generation followed through nginx from Last-Event-ID, on each replica in turn, rebuilds exactly its text', async () => {
  const { user, token } = await makeApiUser()
  const cookie = await signIn(user.email)
  const started = await generate(token)
  expect(started.status).toBe(200)
  const first = await readEvents(started, (event) => event.event === 'delta')
  const id = first[0].data.id as string
  const path = `/resources/generations/${id}`
  const followed = await Promise.all(
    apps.map(async () => {
      const response = await fetch(`${nginx.origin}${path}`, { headers: { Cookie: cookie, 'Last-Event-ID': String(first.at(-1)!.id) } })
      expect(response.status).toBe(200)
      return readEvents(response)
    }),
  )
  const { generatedNarrative } = await prisma.narrative.findUniqueOrThrow({ where: { id } })
  for (const events of followed) {
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete', text: generatedNarrative } })
    expect(textOf(first) + textOf(events)).toBe(generatedNarrative)
  }
  // nginx took the three follows round the three replicas: two of them relayed from the runner.
  await vi.waitUntil(() => servedBy(path).length === apps.length, { timeout: 5_000 })
}, 90_000)

/**
 * A Stop ends the generation within about a second, wherever it runs; three allow for a busy machine running three
 * replicas, nginx and PostgreSQL. A Stop that never reached the runner would leave it to complete (about 10 s).
 */
const STOP_WITHIN_MS = 3_000

it('Stop through nginx ends the generation within a second, wherever it runs', async () => {
  const { user, token } = await makeApiUser()
  const cookie = await signIn(user.email)
  const stops = []
  // nginx takes requests round the replicas: a Stop lands on another than the one that runs the generation.
  for (let round = 0; round < 2; round++) {
    const started = await generate(token)
    const id = (await readEvents(started, (event) => event.event === 'delta'))[0].data.id as string
    const postedAt = Date.now()
    const stopped = await fetch(`${nginx.origin}/dashboard`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'stop', id }),
    })
    expect(stopped.status).toBe(200)
    await vi.waitUntil(async () => (await prisma.narrative.findUniqueOrThrow({ where: { id } })).status !== 'generating', {
      timeout: 5_000,
      interval: 20,
    })
    stops.push({ id, ms: Date.now() - postedAt, requestId: stopped.headers.get('X-Request-Id')! })
  }
  for (const { id, ms, requestId } of stops) {
    expect(ms).toBeLessThan(STOP_WITHIN_MS)
    expect((await prisma.narrative.findUniqueOrThrow({ where: { id } })).status).toBe('stopped')
    const runner = await until(
      () => apps.find((app) => logged(app, (line) => line.event === 'generation.started' && line.narrativeId === id)),
      {
        what: `the replica that logged starting ${id}`,
      },
    )
    const stoppedOn = await until(() => apps.find((app) => logged(app, (line) => line.requestId === requestId)), {
      what: `the replica that logged the Stop ${requestId}`,
    })
    expect(stoppedOn).not.toBe(runner)
  }
}, 90_000)

it('holds the sign-up rate limit across the replicas: of 30 from one address, exactly the limit get in', async () => {
  const statuses = await Promise.all(
    Array.from({ length: 30 }, async (_, i) => {
      const answer = await fetch(`${nginx.origin}/auth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: `joiner${i}@example.org`,
          firstName: 'J',
          lastName: 'P',
          password: 'a good password',
          confirmPassword: 'a good password',
        }),
      })
      return answer.status
    }),
  )
  expect(statuses.filter((status) => status === 201)).toHaveLength(RATE_LIMITS.signup.ip.limit)
  expect(statuses.filter((status) => status === 429)).toHaveLength(30 - RATE_LIMITS.signup.ip.limit)
  expect(servedBy('/auth/register')).toHaveLength(apps.length)
}, 90_000)
