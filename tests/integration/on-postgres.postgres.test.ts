import { execFileSync, spawnSync } from 'node:child_process'
import { copyDatabase, testPostgres } from '../setup/postgres'
import { startAppServer, type AppServer } from '../setup/app-server'
import { FULL_INPUT } from '../setup/narrative-input'
import { makeApiUser } from '../setup/users'
import { resetDatabase } from '../setup/db'

// Run only on PostgreSQL (TEST_DATABASE=postgres): what SQLite has no counterpart for. docs/operations.md#postgresql.

const postgres = testPostgres()!
let apps: AppServer[] = []

beforeEach(resetDatabase)
afterEach(async () => {
  await Promise.all(apps.map((app) => app.stop()))
  apps = []
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
  const answer = await fetch(`${app.origin}/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: 'first@example.org',
      firstName: 'Ada',
      lastName: 'Admin',
      password: 'a good password',
      confirmPassword: 'a good password',
    }),
  })
  expect(answer.status).toBe(201)
  const applied = execFileSync(
    'psql',
    [`${postgres.server}${name}`, '-Atc', 'SELECT count(*) FROM _prisma_migrations WHERE finished_at IS NOT NULL'],
    { encoding: 'utf8' },
  )
  expect(Number(applied)).toBeGreaterThan(0)
}, 90_000)

it.each(['SESSION_SECRET', 'SMTP_URL'])('the built app will not start on PostgreSQL without %s, and says why', async (setting) => {
  const started = startAppServer({ env: { [setting]: '' } })
  await expect(started).rejects.toThrow(`${setting}: is required with a PostgreSQL DATABASE_URL, so that every replica shares it`)
})

it('two replicas on one database let exactly MAX_DAILY_GENERATIONS of 60 simultaneous starts through', async () => {
  const env = { DATABASE_URL: process.env.DATABASE_URL!, MAX_DAILY_GENERATIONS: '25', DAILY_NARRATIVE_LIMIT: '10' }
  apps = await Promise.all([startAppServer({ env }), startAppServer({ env })])
  const users = await Promise.all(Array.from({ length: 60 }, (_, i) => makeApiUser({ email: `starter${i}@example.org` })))
  const statuses = await Promise.all(
    users.map(async ({ token }, i) => {
      const answer = await fetch(`${apps[i % 2].origin}/api/narrative/generate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(FULL_INPUT),
      })
      await answer.body?.cancel()
      return answer.status
    }),
  )
  expect(statuses.filter((status) => status === 200)).toHaveLength(25)
  expect(statuses.filter((status) => status === 429)).toHaveLength(35)
}, 120_000)
