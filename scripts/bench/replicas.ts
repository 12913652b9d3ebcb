import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startAppServer, type AppServer } from '../../tests/setup/app-server'
import { startNginx } from '../../tests/setup/nginx'
import { copyDatabase, startPostgres } from '../../tests/setup/postgres'

// PostgreSQL, and the app behind nginx as compose.yaml runs it, with one replica or with three: the
// "generations through replicas" row of npm run bench.

const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

export type Cluster = { origin: string; replicas: AppServer[]; stop(): Promise<void> }

export async function startPostgresFor(env: Record<string, string>, users: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-postgres-'))
  const server = await startPostgres(dir)
  await copyDatabase(server.url('postgres'), 'template0', 'bench')
  const appEnv = { ...env, DATABASE_URL: server.url('bench'), SMTP_URL: 'smtp://127.0.0.1:1' }
  await (await startAppServer({ env: appEnv })).stop() // migrations
  const tokens = await seedApiUsers(server.url('bench'), users)
  return {
    env: appEnv,
    tokens,
    stop() {
      server.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Users with an API token each, written straight into the migrated database. */
async function seedApiUsers(url: string, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const tokens = Array.from({ length: count }, () => crypto.randomBytes(32).toString('base64url'))
    const ids = tokens.map((_, i) => `bench-replica-user-${i}`)
    const expires = new Date(Date.now() + 86_400_000)
    await client.query(
      `INSERT INTO "User" ("id", "email", "firstName", "lastName", "passwordHash", "termsAcceptedAt", "updatedAt")
       SELECT id, id || '@bench.test', 'Bench', 'User', '', now(), now() FROM unnest($1::text[]) AS id`,
      [ids],
    )
    await client.query(
      `INSERT INTO "Session" ("id", "kind", "userId", "expiresAt") SELECT token, 'api', id, $3 FROM unnest($1::text[], $2::text[]) AS s(token, id)`,
      [tokens.map(hash), ids, expires],
    )
    return tokens
  } finally {
    await client.end()
  }
}

export async function startCluster(env: Record<string, string>, replicas: number): Promise<Cluster> {
  const apps = await Promise.all(Array.from({ length: replicas }, () => startAppServer({ env: { ...env, TRUST_PROXY: '1' } })))
  const nginx = await startNginx(apps.map((app) => app.port))
  return {
    origin: nginx.origin,
    replicas: apps,
    async stop() {
      await nginx.stop()
      await Promise.all(apps.map((app) => app.stop()))
    },
  }
}
