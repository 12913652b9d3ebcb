import Database from 'better-sqlite3'
import pg from 'pg'
import type { AppServer } from './app-server'

// The built app's own database, for tests that arrange or check rows under it: its SQLite file, or in
// a run on PostgreSQL the database of its own (tests/setup/app-server.ts). The SQL is written once for
// both, with `?` placeholders.

export type AppQuery = (sql: string, ...params: unknown[]) => Promise<Record<string, unknown>[]>

export function appDatabaseKind(app: AppServer): 'sqlite' | 'postgres' {
  return app.databaseUrl.startsWith('file:') ? 'sqlite' : 'postgres'
}

export async function onAppDatabase<T>(app: AppServer, use: (query: AppQuery) => Promise<T> | T): Promise<T> {
  if (appDatabaseKind(app) === 'sqlite') {
    const db = new Database(app.databaseUrl.slice('file:'.length))
    db.pragma('busy_timeout = 5000')
    try {
      return await use(async (sql, ...params) => {
        const statement = db.prepare(sql)
        if (statement.reader) return statement.all(...params) as Record<string, unknown>[]
        statement.run(...params)
        return []
      })
    } finally {
      db.close()
    }
  }
  const client = new pg.Client({ connectionString: app.databaseUrl })
  await client.connect()
  try {
    return await use(async (sql, ...params) => {
      let n = 0
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows
    })
  } finally {
    await client.end()
  }
}

/**
 * Every row of every table of the app's, Prisma's migration table included, each table's rows in one
 * order; but `except`'s tables.
 */
export function dumpAppDatabase(app: AppServer, { except = [] as string[] } = {}) {
  return onAppDatabase(app, async (query) => {
    const tables =
      appDatabaseKind(app) === 'sqlite'
        ? await query(`SELECT "name" FROM "sqlite_master" WHERE "type" = 'table'`)
        : await query(`SELECT "tablename"::text AS "name" FROM pg_tables WHERE "schemaname" = 'public'`)
    const names = tables
      .map(({ name }) => String(name))
      .filter((name) => !except.includes(name))
      .sort()
    const dump: Record<string, Record<string, unknown>[]> = {}
    for (const name of names) {
      const rows = await query(`SELECT * FROM "${name}"`)
      dump[name] = rows
        .map((row) => JSON.stringify(row))
        .sort()
        .map((row) => JSON.parse(row))
    }
    return dump
  })
}
