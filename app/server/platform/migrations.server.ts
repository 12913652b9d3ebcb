import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import Database from 'better-sqlite3'

const MIGRATIONS_DIR = 'prisma/migrations'

export function applyPendingMigrations(databaseFile: string) {
  // Starting Prisma's CLI costs seconds; a restart with nothing to migrate should not pay it.
  if (!hasPendingMigrations(databaseFile)) return
  const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js')
  execFileSync(process.execPath, [prismaCli, 'migrate', 'deploy'], { stdio: ['ignore', 'ignore', 'inherit'] })
}

function hasPendingMigrations(databaseFile: string): boolean {
  if (!fs.existsSync(databaseFile)) return true
  const migrations = fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
  const db = new Database(databaseFile, { readonly: true })
  try {
    const applied = db
      .prepare('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL')
      .pluck()
      .all() as string[]
    return migrations.some((name) => !applied.includes(name))
  } catch {
    return true // no migrations table yet, or unreadable: let Prisma decide
  } finally {
    db.close()
  }
}
