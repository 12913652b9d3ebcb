import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { SCHEMAS, type DatabaseTarget } from '~/server/platform/database-url.server'
import { postgresPoolConfig } from '~/server/platform/database-adapters.server'
import { log } from '~/server/platform/logger.server'

const APPLIED = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL'

/**
 * Applies what Prisma Migrate has pending, before the app loads. Starting Prisma's CLI costs seconds
 * (about ten on PostgreSQL even with nothing to do), so a restart with nothing to migrate skips it.
 */
export async function applyPendingMigrations(database: DatabaseTarget) {
  const pending = await pendingMigrations(database)
  if (!pending.length) return
  const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js')
  // The CLI's own chatter ("Prisma config detected, skipping environment variable loading") reads as if
  // the app's settings were ignored: it is shown only when the CLI fails, and the app says what it did.
  const result = spawnSync(process.execPath, [prismaCli, 'migrate', 'deploy'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })
  if (result.status !== 0) {
    // A CLI that could not start, was killed or overflowed its buffer says why in `error` and `signal`.
    log('error', 'database.migration-failed', {
      output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim(),
      ...(result.error ? { error: result.error.message } : {}),
      ...(result.signal ? { signal: result.signal } : {}),
    })
    throw new Error('Could not apply the database migrations: see the log line before this one.')
  }
  log('info', 'database.migrated', { message: `Applied ${pending.length} database migration(s).`, migrations: pending })
}

/** The migrations not yet applied; every one when the database is new or unreadable (Prisma then decides). */
async function pendingMigrations(database: DatabaseTarget): Promise<string[]> {
  const folder = path.join(path.dirname(SCHEMAS[database.kind]), 'migrations')
  const migrations = fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
  try {
    const applied = new Set(database.kind === 'sqlite' ? appliedInSqlite(database.file) : await appliedInPostgres(database.url))
    return migrations.filter((name) => !applied.has(name))
  } catch {
    return migrations // no migrations table yet, or unreadable
  }
}

function appliedInSqlite(file: string): string[] {
  if (!fs.existsSync(file)) throw new Error('no database yet')
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare(APPLIED).pluck().all() as string[]
  } finally {
    db.close()
  }
}

async function appliedInPostgres(url: string): Promise<string[]> {
  const client = new pg.Client(postgresPoolConfig(url))
  await client.connect()
  try {
    return (await client.query<{ migration_name: string }>(APPLIED)).rows.map((row) => row.migration_name)
  } finally {
    await client.end()
  }
}
