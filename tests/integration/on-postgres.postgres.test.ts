import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import pg from 'pg'
import { copyDatabase, testPostgres } from '../setup/postgres'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { FULL_INPUT } from '../setup/narrative-input'
import { makeApiUser, PASSWORD } from '../setup/users'
import { resetDatabase } from '../setup/db'
import { logLines } from '../setup/app-logs'
import { readEvents, textOf } from '../setup/sse'
import { until } from '../setup/until'
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai'
import { prisma } from '~/server/platform/db.server'
import { rateLimitStore } from '~/server/edge/rate-limit.server'
import { purgeExpiredCounters } from '~/server/cluster/replicas.server'
import { MAX_STREAMS_PER_USER } from '~/server/generation/follow/stream-slots.server'
import { deriveBusKeys, toPayloads } from '~/server/cluster/bus.server'

// Run only on PostgreSQL (TEST_DATABASE=postgres): what SQLite has no counterpart for. docs/operations.md#postgresql.

const postgres = testPostgres()!
/**
 * A Stop, relayed over the bus, ends a generation on another replica within about a second; three allow
 * for a busy machine running two replicas and PostgreSQL. A Stop lost on the way lets it run on to complete.
 */
const STOP_WITHIN_MS = 3_000
let apps: AppServer[] = []
let fake: FakeOpenAI | undefined

beforeEach(resetDatabase)
afterEach(async () => {
  await Promise.all(apps.map((app) => app.stop()))
  apps = []
  await fake?.close()
  fake = undefined
})

it('the migrations build the schema of prisma/postgres/schema.prisma', () => {
  // The shadow database Migrate replays them into is made on the test server, and dropped after.
  const diff = spawnSync(
    'npx',
    [
      'prisma',
      'migrate',
      'diff',
      '--from-migrations',
      'prisma/postgres/migrations',
      '--to-schema-datamodel',
      'prisma/postgres/schema.prisma',
      '--exit-code',
    ],
    { encoding: 'utf8' },
  )
  expect(diff.stdout).toContain('No difference detected')
  expect(diff.status).toBe(0)
}, 60_000)

it('the built app migrates an empty database as it starts, and serves', async () => {
  const name = `empty_${crypto.randomUUID().replaceAll('-', '')}`
  await copyDatabase(`${postgres.server}postgres`, 'template0', name)
  const app = await startAppServer({
    env: { DATABASE_URL: `${postgres.server}${name}`, SESSION_SECRET: 'a'.repeat(40), SMTP_URL: globalThis.smtpSink.url },
  })
  apps.push(app)
  // Throws unless the sign-up answers 201.
  await registerOverHttp(app.origin, 'first@example.org')
  const applied = execFileSync(
    'psql',
    [`${postgres.server}${name}`, '-Atc', 'SELECT count(*) FROM _prisma_migrations WHERE finished_at IS NOT NULL'],
    { encoding: 'utf8' },
  )
  const migrations = fs.readdirSync('prisma/postgres/migrations').filter((name) => /^\d+_/.test(name))
  expect(Number(applied)).toBe(migrations.length)
}, 90_000)

it.each(['SESSION_SECRET', 'SMTP_URL'])('the built app will not start on PostgreSQL without %s, and says why', async (setting) => {
  const started = startAppServer({ env: { [setting]: '' } })
  await expect(started).rejects.toThrow(`${setting}: is required with a PostgreSQL DATABASE_URL, so that every replica shares it`)
})

/**
 * Replicas with a model slow enough that a generation (about 350 words) runs for about 10 s at 25 ms a
 * piece: still running when a replica restarts or dies, or another follows it.
 */
async function slowReplicas(count: number, pieceIntervalMs = 25) {
  fake = await startFakeOpenAI({ firstTokenDelayMs: 20, pieceIntervalMs })
  const env = { DATABASE_URL: process.env.DATABASE_URL!, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'x' }
  apps = await Promise.all(Array.from({ length: count }, () => startAppServer({ env })))
  return env
}

/** Starts a generation on `app` through the API, reading its own stream up to the first piece (then hanging up). */
async function startOn(app: AppServer, token: string) {
  const answer = await fetch(`${app.origin}/api/narrative/generate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(FULL_INPUT),
  })
  expect(answer.status).toBe(200)
  const events = await readEvents(answer, (event) => event.event === 'delta')
  return { id: events[0].data.id as string, seen: textOf(events), lastEventId: Number(events.at(-1)!.id) }
}

describe('replicas of one database (decision 036)', () => {
  const narrative = (id: string) => prisma.narrative.findUniqueOrThrow({ where: { id }, select: { status: true, runner: true } })
  const used = async (userId: string) => (await prisma.user.findUniqueOrThrow({ where: { id: userId } })).quotaUsed
  const recovered = (app: AppServer) => logLines(app).filter((line) => line.event === 'generation.recovered')
  /** Waits until `count` replicas have beaten (app/server/generation/job/replicas.server.ts) since it was called. */
  const survivorsBeat = async (count: number) => {
    const since = new Date()
    await until(async () => (await prisma.replica.count({ where: { seenAt: { gt: since } } })) >= count, {
      what: `${count} replicas beating`,
      intervalMs: 100,
    })
  }

  it("a replica that restarts leaves another's running generation alone, and it completes", async () => {
    const env = await slowReplicas(2)
    const { user, token } = await makeApiUser()
    const { id } = await startOn(apps[0], token)
    await apps[1].stop()
    apps[1] = await startAppServer({ env })
    expect((await narrative(id)).status).toBe('generating')
    await vi.waitUntil(async () => (await narrative(id)).status !== 'generating', { timeout: 60_000, interval: 200 })
    expect((await narrative(id)).status).toBe('complete')
    expect(recovered(apps[1])).toEqual([])
    expect(await used(user.id)).toBe(1)
  }, 90_000)

  it("a replica's generations are failed and refunded once, by one of the others, when it is killed", async () => {
    await slowReplicas(3)
    const { user, token } = await makeApiUser()
    // One generation completed before: a second refund would show as 0 used, not 1.
    await prisma.user.update({ where: { id: user.id }, data: { quotaUsed: 1, quotaDay: new Date().toISOString().slice(0, 10) } })
    const { id } = await startOn(apps[0], token)
    expect(await used(user.id)).toBe(2)
    await apps[0].kill()
    await vi.waitUntil(async () => (await narrative(id)).status === 'failed', { timeout: 30_000, interval: 200 })
    // Both survivors look at every beat, right after writing it: once both have beaten twice since, the one
    // that did not fail it has looked too, and had a whole beat (2 s) to finish looking.
    await survivorsBeat(2)
    await survivorsBeat(2)
    expect(await used(user.id)).toBe(1)
    const counts = [...recovered(apps[1]), ...recovered(apps[2])].map((line) => line.count)
    expect(counts).toEqual([1])
    apps = apps.slice(1)
  }, 90_000)
})

describe('the relay between replicas (decision 038)', () => {
  async function signInOn(app: AppServer, email: string) {
    const answer = await fetch(`${app.origin}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: PASSWORD }),
    })
    return answer.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ')
  }

  function follow(app: AppServer, id: string, cookie: string, lastEventId?: number, signal?: AbortSignal) {
    const headers: Record<string, string> = { Cookie: cookie, Accept: 'text/event-stream' }
    if (lastEventId) headers['Last-Event-ID'] = String(lastEventId)
    return fetch(`${app.origin}/resources/generations/${id}`, { headers, signal })
  }

  async function stopThrough(app: AppServer, id: string, cookie: string) {
    const stopped = await fetch(`${app.origin}/dashboard`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', Origin: app.origin },
      body: new URLSearchParams({ intent: 'stop', id }),
    })
    expect(stopped.status).toBe(200)
  }

  const saved = (id: string) => prisma.narrative.findUniqueOrThrow({ where: { id }, select: { status: true, generatedNarrative: true } })

  it('a stream started on one replica, followed on the two others from Last-Event-ID, rebuilds exactly the final text', async () => {
    await slowReplicas(3)
    const { user, token } = await makeApiUser()
    const cookie = await signInOn(apps[1], user.email)
    const { id, seen, lastEventId } = await startOn(apps[0], token)
    const followed = await Promise.all(
      [apps[1], apps[2]].map(async (app) => {
        const response = await follow(app, id, cookie, lastEventId)
        expect(response.status).toBe(200)
        return readEvents(response)
      }),
    )
    const { status, generatedNarrative } = await saved(id)
    expect(status).toBe('complete')
    for (const events of followed) {
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete', text: generatedNarrative } })
      expect(seen + textOf(events)).toBe(generatedNarrative)
    }
  }, 90_000)

  it('Stop posted to one replica ends the generation running on another within a second', async () => {
    await slowReplicas(2)
    const { user, token } = await makeApiUser()
    const cookie = await signInOn(apps[1], user.email)
    const { id } = await startOn(apps[0], token)
    const stream = await follow(apps[0], id, cookie)
    const postedAt = Date.now()
    await stopThrough(apps[1], id, cookie)
    const end = (await readEvents(stream)).at(-1)!
    expect(Date.now() - postedAt).toBeLessThan(STOP_WITHIN_MS)
    expect(end).toMatchObject({ event: 'done', data: { status: 'stopped' } })
    expect((await saved(id)).status).toBe('stopped')
  }, 90_000)

  it("a follow across a cut in the replicas' bus connections still ends with the whole text, and Stop works once they are back", async () => {
    await slowReplicas(2)
    const { user, token } = await makeApiUser()
    const cookie = await signInOn(apps[1], user.email)
    const { id, lastEventId } = await startOn(apps[0], token)
    // As a failover would: the database ends both replicas' listening connections.
    await prisma.$executeRaw`
      SELECT pg_terminate_backend("pid") FROM pg_stat_activity
      WHERE "application_name" = 'impact-narrative-studio-bus' AND "datname" = current_database()`
    const followed = await readEvents(await follow(apps[1], id, cookie, lastEventId))
    const { generatedNarrative } = await saved(id)
    expect(followed.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete', text: generatedNarrative } })
    for (const app of apps) expect(logLines(app).some((line) => line.event === 'bus.disconnected')).toBe(true)
    // Connected again: a Stop through the other replica reaches the runner.
    const second = await startOn(apps[0], token)
    const stream = await follow(apps[0], second.id, cookie)
    const postedAt = Date.now()
    await stopThrough(apps[1], second.id, cookie)
    expect((await readEvents(stream)).at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } })
    expect(Date.now() - postedAt).toBeLessThan(STOP_WITHIN_MS)
  }, 90_000)

  it("counts a person's open streams across replicas, and frees a killed replica's once it is seen dead", async () => {
    // About 40 s of writing: the generation outlives the test, so every stream stays open.
    await slowReplicas(2, 100)
    const { user, token } = await makeApiUser()
    const cookie = await signInOn(apps[0], user.email)
    const { id } = await startOn(apps[0], token)
    const hangUp = new AbortController()
    // Held, not only read for their status: fetch cancels a response's body once nothing refers to it.
    const held: Response[] = []
    const open = async (app: AppServer) => {
      const response = await follow(app, id, cookie, undefined, hangUp.signal)
      held.push(response)
      return response.status
    }
    try {
      const statuses = []
      for (const app of [apps[0], apps[1], apps[0], apps[1], apps[0], apps[1], apps[0], apps[1]]) statuses.push(await open(app))
      expect(statuses).toEqual(Array(MAX_STREAMS_PER_USER).fill(200))
      expect([await open(apps[0]), await open(apps[1])]).toEqual([429, 429])
      // Its four streams die with it; until it is seen dead (10 s) they still count.
      await apps[1].kill()
      const killedAt = Date.now()
      expect(await open(apps[0])).toBe(429)
      await vi.waitUntil(async () => (await open(apps[0])) === 200, { timeout: 30_000, interval: 500 })
      expect(Date.now() - killedAt).toBeGreaterThan(8_000)
      for (let i = 0; i < 3; i++) expect(await open(apps[0])).toBe(200)
      expect(await open(apps[0])).toBe(429)
      expect((await saved(id)).status).toBe('generating')
    } finally {
      hangUp.abort()
    }
    apps = apps.slice(0, 1)
  }, 90_000)

  it('disabling a user through one replica stops their generation on another, and ends their streams there', async () => {
    await slowReplicas(2)
    const admin = await makeApiUser()
    const { user, token } = await makeApiUser()
    const cookie = await signInOn(apps[0], user.email)
    const { id } = await startOn(apps[0], token)
    const stream = await follow(apps[0], id, cookie)
    const disabled = await fetch(`${apps[1].origin}/auth/users/${user.id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ disabled: true }),
    })
    expect(disabled.status).toBe(200)
    expect((await readEvents(stream)).at(-1)).toMatchObject({
      event: 'error',
      data: { error: 'Your session has ended. Sign in again to follow this narrative.' },
    })
    await vi.waitUntil(async () => (await saved(id)).status !== 'generating', { timeout: 5_000, interval: 100 })
    expect((await saved(id)).status).toBe('stopped')
  }, 90_000)
  it("ignores a stop-user and a session's end forged by another database client on the replicas' channel", async () => {
    await slowReplicas(2)
    const { user, token } = await makeApiUser()
    const cookie = await signInOn(apps[0], user.email)
    const { id } = await startOn(apps[0], token)
    const stream = await follow(apps[0], id, cookie)
    const forgeries = [
      // The envelope the bus used before it signed, and one signed with a key the replicas do not hold.
      JSON.stringify({ from: 'x', n: 1, m: 1, part: 0, parts: 1, data: JSON.stringify({ type: 'stop-user', userId: user.id }) }),
      ...toPayloads({ type: 'session', change: { kind: 'ended', userId: user.id } }, 'x', () => 2, {
        keys: deriveBusKeys(['a guessed secret']),
        at: Date.now(),
      }),
    ]
    const intruder = new pg.Client({ connectionString: apps[0].databaseUrl })
    await intruder.connect()
    try {
      await intruder.query("SELECT pg_notify('studio', payload) FROM unnest($1::text[]) AS m(payload)", [forgeries])
    } finally {
      await intruder.end()
    }
    await vi.waitUntil(() => logLines(apps[0]).some((line) => line.event === 'bus.refused'), { timeout: 5_000, interval: 50 })
    // Refused on arrival: a genuine Stop afterwards is what ends the generation and its stream.
    expect((await saved(id)).status).toBe('generating')
    await stopThrough(apps[1], id, cookie)
    expect((await readEvents(stream)).at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } })
  }, 90_000)
})

describe('rate limits in the database (decision 037)', () => {
  it('forget a window once it is over: the hourly purge deletes its row', async () => {
    await rateLimitStore.count('signup:ip:203.0.113.9', 1)
    await rateLimitStore.count('signup:ip:203.0.113.10', 60_000)
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(await purgeExpiredCounters()).toBe(1)
    expect((await prisma.rateLimit.findMany()).map((row) => row.key)).toEqual(['signup:ip:203.0.113.10'])
  })
})
