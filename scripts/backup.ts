// npm run backup -- [--force] FILE
//
// An online backup of the live database through SQLite's backup API: safe while the app runs and
// writes, never a copy of the file (a copy taken mid-write, or without its -wal file, can be torn or
// stale). The copy is written beside FILE under a temporary name, checked with PRAGMA integrity_check,
// made self-contained (rollback journal, no -wal), flushed to disk and only then given its name.
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { DEFAULT_DATABASE_URL, databaseTarget, resolveDatabaseFile } from '~/server/platform/database-url.server'
import { fsyncDirectory, fsyncFile } from './sqlite-files'

const USAGE = 'Usage: npm run backup -- [--force] FILE   (--force overwrites an existing FILE)'

// PostgreSQL has its own tools for both, better than any this command could be.
const ON_POSTGRES =
  '`npm run backup` copies a SQLite file, and DATABASE_URL names a PostgreSQL database. Back it up with\n' +
  "PostgreSQL's own tool, while the app runs:\n" +
  '  pg_dump --format=custom --file=FILE "$DATABASE_URL"\n' +
  'docs/operations.md#postgresql says more.'

class Failure extends Error {}

type DatabaseSummary = { tables: number; users: number | null; narratives: number | null; migration: string | null }

async function main(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  if (databaseTarget(process.env.DATABASE_URL || DEFAULT_DATABASE_URL).kind === 'postgres') {
    console.error(ON_POSTGRES)
    return 2
  }
  const force = args.includes('--force')
  const rest = args.filter((arg) => arg !== '--force')
  const unknown = rest.find((arg) => arg.startsWith('-') && arg !== '-')
  if (unknown || rest.length !== 1 || !rest[0]) {
    console.error(unknown ? `Unknown option ${unknown}.\n${USAGE}` : USAGE)
    return 2
  }
  // `npm run` changes to the package folder; a relative FILE means the folder the command was typed in.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), rest[0])
  const databaseFile = resolveDatabaseFile(process.env.DATABASE_URL || DEFAULT_DATABASE_URL)

  // The copy holds password hashes and every narrative: readable by its owner only.
  process.umask(0o077)
  try {
    const started = Date.now()
    checkTarget(target, databaseFile, force)
    const summary = await backup(databaseFile, target, force)
    const size = fs.statSync(target).size
    console.log(
      `Backup OK: ${target} (${formatBytes(size)}) from ${databaseFile}; integrity ok; ${summary.tables} tables, ` +
        `User ${summary.users ?? 'missing'} rows, Narrative ${summary.narratives ?? 'missing'} rows; ` +
        `schema ${summary.migration ?? 'unknown'}; ${Date.now() - started} ms`,
    )
    return 0
  } catch (error) {
    console.error(`Backup failed: ${error instanceof Failure ? error.message : String(error)}`)
    return 1
  }
}

function checkTarget(target: string, databaseFile: string, force: boolean) {
  const live = [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`, `${databaseFile}-journal`]
  if (live.includes(target)) throw new Failure(`${target} is the live database (or one of its files); choose another FILE.`)
  if (!fs.existsSync(databaseFile)) throw new Failure(`no database at ${databaseFile} (check DATABASE_URL).`)
  if (!fs.existsSync(path.dirname(target))) throw new Failure(`the folder ${path.dirname(target)} does not exist.`)
  const existing = fs.statSync(target, { throwIfNoEntry: false })
  if (existing?.isDirectory()) throw new Failure(`${target} is a folder; give a file name.`)
  if (existing && !force) throw new Failure(`${target} already exists; pass --force to overwrite it.`)
}

async function backup(databaseFile: string, target: string, force: boolean): Promise<DatabaseSummary> {
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.partial-${process.pid}`)
  fs.rmSync(partial, { force: true })
  try {
    const source = new Database(databaseFile, { readonly: true, fileMustExist: true, timeout: 5000 })
    try {
      // The first step only measures; then everything is copied in one step, that is one read
      // transaction: a consistent snapshot that (in WAL mode) never blocks the app's writers. Copying
      // in small steps would restart from the first page after every write the app makes, and might
      // never finish on a busy server.
      await source.backup(partial, { progress: () => 0x7fffffff })
    } finally {
      source.close()
    }

    const copy = new Database(partial, { fileMustExist: true })
    let summary: DatabaseSummary
    try {
      // One self-contained file: no -wal beside it (the app turns WAL back on when it opens it).
      copy.pragma('journal_mode = DELETE')
      const problems = copy.pragma('integrity_check', { simple: false }) as { integrity_check: string }[]
      const verdict = problems.map((row) => row.integrity_check)
      if (verdict.length !== 1 || verdict[0] !== 'ok')
        throw new Failure(`integrity_check of the copy failed: ${verdict.slice(0, 5).join('; ')}`)
      summary = summarize(copy)
    } finally {
      copy.close()
    }

    fsyncFile(partial)
    if (force) {
      fs.renameSync(partial, target)
    } else {
      // A hard link never replaces a file that appeared in the meantime.
      try {
        fs.linkSync(partial, target)
        fs.rmSync(partial)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Failure(`${target} already exists; pass --force to overwrite it.`)
        if (fs.existsSync(target)) throw error
        fs.renameSync(partial, target) // file systems without hard links
      }
    }
    fsyncDirectory(path.dirname(target))
    return summary
  } finally {
    for (const suffix of ['', '-journal', '-wal', '-shm']) fs.rmSync(`${partial}${suffix}`, { force: true })
  }
}

function summarize(db: Database.Database): DatabaseSummary {
  const tables = (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[]
  ).map((row) => row.name)
  const count = (table: string) =>
    tables.includes(table) ? (db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n : null
  const migration = tables.includes('_prisma_migrations')
    ? ((
        db
          .prepare(
            `SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name DESC LIMIT 1`,
          )
          .get() as { name: string } | undefined
      )?.name ?? null)
    : null
  return { tables: tables.length, users: count('User'), narratives: count('Narrative'), migration }
}

function formatBytes(bytes: number) {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

process.exitCode = await main(process.argv.slice(2))
