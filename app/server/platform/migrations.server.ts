import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { SCHEMAS, type DatabaseTarget } from '~/server/platform/database-url.server'
import { postgresPoolConfig } from '~/server/platform/database-adapters.server'

const APPLIED = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL'

/**
 * Applies what Prisma Migrate has pending, before the app loads. Starting Prisma's CLI costs seconds
 * (about ten on PostgreSQL even with nothing to do), so a restart with nothing to migrate skips it.
 */
export async function applyPendingMigrations(database: DatabaseTarget) {
  if (!(await hasPendingMigrations(database))) return
  const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js')
  execFileSync(process.execPath, [prismaCli, 'migrate', 'deploy'], { stdio: ['ignore', 'ignore', 'inherit'] })
}

async function hasPendingMigrations(database: DatabaseTarget): Promise<boolean> {
  const folder = path.join(path.dirname(SCHEMAS[database.kind]), 'migrations')
  const migrations = fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
  try {
    const applied = new Set(database.kind === 'sqlite' ? appliedInSqlite(database.file) : await appliedInPostgres(database.url))
    return migrations.some((name) => !applied.has(name))
  } catch {
    return true // no migrations table yet, or unreadable: let Prisma decide
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
