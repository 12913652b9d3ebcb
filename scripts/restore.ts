// npm run restore -- FILE
//
// Replaces the database at DATABASE_URL with a backup made by `npm run backup`. STOP THE APP FIRST.
// 1. The backup is copied to a temporary file in the database's folder, and that copy is checked: a
//    SQLite file, PRAGMA integrity_check = ok, the app's tables present. It is flushed to disk.
// 2. The live database must not be in use: a running server is detected (best effort) by asking for
//    an exclusive lock with a short timeout. Its WAL is checkpointed into the file.
// 3. The old database is kept as `<name>.before-restore-<timestamp>` beside it; stale -wal/-shm files
//    are removed (an old WAL replayed onto the restored file would corrupt it); the checked copy is
//    renamed into place.
// The next `npm start` applies any migrations newer than the backup (prisma migrate deploy), so a
// backup from an older version restores into a newer app.
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { DEFAULT_DATABASE_URL, databaseTarget, resolveDatabaseFile } from '~/server/platform/database-url.server'
import { fsyncDirectory, fsyncFile } from './sqlite-files'

const USAGE = 'Usage: npm run restore -- FILE   (stop the app first; the current database is kept beside it)'
const REQUIRED_TABLES = ['_prisma_migrations', 'User', 'Narrative']
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1')

// PostgreSQL has its own tools for both, better than any this command could be.
const ON_POSTGRES =
  '`npm run restore` replaces a SQLite file, and DATABASE_URL names a PostgreSQL database. Restore a\n' +
  "pg_dump backup with PostgreSQL's own tool, every replica stopped first:\n" +
  '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" FILE\n' +
  'docs/operations.md#postgresql says more.'

class Failure extends Error {}

async function main(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  if (databaseTarget(process.env.DATABASE_URL || DEFAULT_DATABASE_URL).kind === 'postgres') {
    console.error(ON_POSTGRES)
    return 2
  }
  const unknown = args.find((arg) => arg.startsWith('-') && arg !== '-')
  if (unknown || args.length !== 1 || !args[0]) {
    console.error(unknown ? `Unknown option ${unknown}.\n${USAGE}` : USAGE)
    return 2
  }
  // `npm run` changes to the package folder; a relative FILE means the folder the command was typed in.
  const source = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0])
  const databaseFile = resolveDatabaseFile(process.env.DATABASE_URL || DEFAULT_DATABASE_URL)
  // The restored database is the live one from now on: its owner's alone, as the app keeps it.
  process.umask(0o077)

  try {
    const result = restore(source, databaseFile)
    console.log(
      `Restored ${source} into ${databaseFile}: integrity ok; User ${result.users} rows, Narrative ${result.narratives} rows; schema ${result.migration ?? 'unknown'}.`,
    )
    if (result.kept) console.log(`The previous database is kept as ${result.kept}.`)
    if (result.unknownMigrations.length) {
      console.warn(
        `Warning: the backup has migrations this version of the app does not know (${result.unknownMigrations.join(', ')}): ` +
          'it comes from a newer version. Run that version, or expect `npm start` to refuse.',
      )
    }
    console.log('Start the app with `npm start`: it applies any newer migrations before serving.')
    return 0
  } catch (error) {
    console.error(`Restore failed: ${error instanceof Failure ? error.message : String(error)}`)
    return 1
  }
}

function restore(source: string, databaseFile: string) {
  const stat = fs.statSync(source, { throwIfNoEntry: false })
  if (!stat) throw new Failure(`${source} does not exist.`)
  if (!stat.isFile()) throw new Failure(`${source} is not a file.`)
  if (source === databaseFile) throw new Failure(`${source} is the live database itself.`)
  if (!hasSqliteHeader(source)) throw new Failure(`${source} is not a SQLite database (no SQLite header); nothing was changed.`)

  const dir = path.dirname(databaseFile)
  fs.mkdirSync(dir, { recursive: true })
  const temp = path.join(dir, `.${path.basename(databaseFile)}.restore-${process.pid}`)
  try {
    removeWithSidecars(temp)
    fs.copyFileSync(source, temp)
    const summary = check(temp, source)
    fsyncFile(temp)

    let kept: string | null = null
    if (fs.existsSync(databaseFile)) {
      quiesce(databaseFile)
      kept = `${databaseFile}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`
      keepOld(databaseFile, kept)
    }
    // Sidecars of the old database must not be applied to the new one.
    for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${databaseFile}${suffix}`, { force: true })
    fs.renameSync(temp, databaseFile)
    fsyncDirectory(dir)
    return { ...summary, kept, unknownMigrations: unknownMigrations(summary.migrations) }
  } finally {
    removeWithSidecars(temp)
  }
}

function hasSqliteHeader(file: string) {
  const fd = fs.openSync(file, 'r')
  try {
    const header = Buffer.alloc(SQLITE_HEADER.length)
    const read = fs.readSync(fd, header, 0, header.length, 0)
    return read === header.length && header.equals(SQLITE_HEADER)
  } finally {
    fs.closeSync(fd)
  }
}

/** The copy we are about to install: intact, with the app's tables. */
function check(file: string, source: string) {
  let db: Database.Database
  try {
    db = new Database(file, { fileMustExist: true })
  } catch (error) {
    throw new Failure(`${source} cannot be opened as a SQLite database: ${String(error)}`)
  }
  try {
    // A self-contained file: if the backup was in WAL mode, its content is all in the file already.
    db.pragma('journal_mode = DELETE')
    const verdict = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check)
    if (verdict.length !== 1 || verdict[0] !== 'ok') {
      throw new Failure(`${source} fails PRAGMA integrity_check: ${verdict.slice(0, 5).join('; ')}; nothing was changed.`)
    }
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((row) => row.name)
    const missing = REQUIRED_TABLES.filter((table) => !tables.includes(table))
    if (missing.length) {
      throw new Failure(
        `${source} is not an Impact Narrative Studio database (missing tables: ${missing.join(', ')}); nothing was changed.`,
      )
    }
    const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n
    const migrations = (
      db
        .prepare(
          `SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
        )
        .all() as {
        name: string
      }[]
    ).map((row) => row.name)
    return { users: count('User'), narratives: count('Narrative'), migrations, migration: migrations.at(-1) ?? null }
  } catch (error) {
    if (error instanceof Failure) throw error
    throw new Failure(`${source} cannot be read as a SQLite database: ${String(error)}; nothing was changed.`)
  } finally {
    db.close()
  }
}

/**
 * Refuses while another process has the live database open. The app keeps a connection open in WAL
 * mode, which holds a shared lock on the file even when idle, so asking for an exclusive lock
 * (locking_mode=EXCLUSIVE, then BEGIN EXCLUSIVE) with a short timeout fails while it runs. Best
 * effort: a server on another machine sharing the file over a network file system is not seen.
 * With the lock held, the WAL is checkpointed into the file, so the kept copy is complete.
 */
function quiesce(databaseFile: string) {
  let db: Database.Database
  try {
    db = new Database(databaseFile, { fileMustExist: true, timeout: 250 })
  } catch (error) {
    throw new Failure(`cannot open the current database ${databaseFile}: ${String(error)}`)
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE')
    try {
      db.exec('BEGIN EXCLUSIVE')
      db.exec('COMMIT')
    } catch (error) {
      if (isBusy(error))
        throw new Failure(`the database ${databaseFile} is in use: stop the app first, then run the restore again. Nothing was changed.`)
      throw error
    }
    const journal = db.pragma('journal_mode', { simple: true })
    if (journal === 'wal') {
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[]
      if (result?.busy) throw new Failure(`the database ${databaseFile} is in use: stop the app first. Nothing was changed.`)
    }
  } catch (error) {
    if (error instanceof Failure) throw error
    // A damaged current database must not block restoring a good one: it is kept as it is.
    console.warn(`Warning: the current database could not be checkpointed (${String(error)}); it is kept as it is.`)
  } finally {
    db.close()
  }
}

function isBusy(error: unknown) {
  const code = (error as { code?: string }).code ?? ''
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')
}

/** The old database stays beside the new one: a hard link (no copy, no moment without a database), or a copy. */
function keepOld(databaseFile: string, kept: string) {
  try {
    fs.linkSync(databaseFile, kept)
  } catch {
    fs.copyFileSync(databaseFile, kept, fs.constants.COPYFILE_EXCL)
  }
  for (const suffix of ['-wal', '-journal']) {
    // Only left if the checkpoint could not run: keep it with the old file rather than lose it.
    const sidecar = `${databaseFile}${suffix}`
    if (fs.statSync(sidecar, { throwIfNoEntry: false })?.size) fs.copyFileSync(sidecar, `${kept}${suffix}`)
  }
}

function unknownMigrations(applied: string[]) {
  const folder = path.resolve('prisma', 'migrations')
  if (!fs.existsSync(folder)) return []
  const known = new Set(
    fs
      .readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  )
  return applied.filter((name) => !known.has(name))
}

function removeWithSidecars(file: string) {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true })
}

process.exitCode = await main(process.argv.slice(2))
