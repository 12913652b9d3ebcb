// `npm start`: apply pending migrations with Prisma's own command, then serve.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import Database from 'better-sqlite3'

const require = createRequire(import.meta.url)

const databaseFile = path.resolve((process.env.DATABASE_URL || 'file:./data/app.db').replace(/^file:/, ''))

// Starting Prisma's CLI costs seconds; a restart with nothing to migrate should not pay it.
if (hasPendingMigrations()) {
  execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'migrate', 'deploy'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}
await import('../server.js')

function hasPendingMigrations() {
  if (!fs.existsSync(databaseFile)) return true
  const migrations = fs
    .readdirSync('prisma/migrations', { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
  const db = new Database(databaseFile, { readonly: true })
  try {
    const applied = db
      .prepare('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL')
      .all()
      .map((row) => row.migration_name)
    return migrations.some((name) => !applied.includes(name))
  } catch {
    return true // no migrations table yet, or unreadable: let Prisma decide
  } finally {
    db.close()
  }
}
