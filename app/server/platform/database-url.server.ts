import path from 'node:path'

export const DEFAULT_DATABASE_URL = 'file:./data/app.db'

// SQLite URLs are resolved against the working directory, for the app and the Prisma CLI alike.
export function resolveDatabaseFile(url: string): string {
  if (!url.startsWith('file:')) throw new Error(`DATABASE_URL must be a SQLite file: URL, got "${url}"`)
  return path.resolve(url.slice('file:'.length))
}
