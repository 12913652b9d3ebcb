import fs from 'node:fs'
import path from 'node:path'

/**
 * The data folder holds password hashes, sessions and every narrative, so it is the process user's
 * alone; files an older version left readable by every local user (app.db was 0644) are fixed at start.
 */
export function keepDataPrivate(dir: string, databaseFile?: string) {
  process.umask(0o077)
  const base = databaseFile && path.basename(databaseFile)
  const sqliteFiles = base ? [base, `${base}-wal`, `${base}-shm`, `${base}-journal`] : []
  for (const name of [...sqliteFiles, 'session-secret', 'outbox']) {
    const file = path.join(dir, name)
    const stat = fs.statSync(file, { throwIfNoEntry: false })
    if (!stat) continue
    fs.chmodSync(file, stat.isDirectory() ? 0o700 : 0o600)
    if (stat.isDirectory()) for (const mail of fs.readdirSync(file)) fs.chmodSync(path.join(file, mail), 0o600)
  }
}
