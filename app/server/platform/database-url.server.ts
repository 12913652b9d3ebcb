import path from 'node:path'

export const DEFAULT_DATABASE_URL = 'file:./data/app.db'

/**
 * What DATABASE_URL names: a SQLite file (the embedded default, one process) or a PostgreSQL database
 * (shared by replicas). The scheme alone decides; docs/decisions/034-postgresql-beside-sqlite.md.
 */
export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }

export const DATABASE_URL_RULE = 'must be a SQLite file: URL or a postgres:// (postgresql://) URL'

export function databaseTarget(url: string): DatabaseTarget {
  if (url.startsWith('file:')) return { kind: 'sqlite', file: resolveDatabaseFile(url) }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url }
  throw new Error(`DATABASE_URL ${DATABASE_URL_RULE}, got "${url.split('@').at(-1)}"`)
}

// SQLite URLs are resolved against the working directory, for the app and the Prisma CLI alike.
export function resolveDatabaseFile(url: string): string {
  if (!url.startsWith('file:')) throw new Error(`DATABASE_URL must be a SQLite file: URL, got "${url}"`)
  return path.resolve(url.slice('file:'.length))
}

export const SCHEMAS = { sqlite: 'prisma/schema.prisma', postgres: 'prisma/postgres/schema.prisma' } as const
