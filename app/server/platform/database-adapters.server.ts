import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { parse } from 'pg-connection-string'

// The driver adapters, for the app and the Prisma CLI alike.

export function sqliteAdapter(file: string) {
  return new PrismaBetterSQLite3({ url: file, timeout: 5000 })
}

/** Never `connectionString`: pg would ignore the shadow database's `database`, and Migrate would use the real one. */
export function postgresPoolConfig(url: string, options: { max?: number; exitOnIdle?: boolean } = {}): pg.PoolConfig {
  const { host, port, user, password, database, ssl, application_name } = parse(url)
  return {
    host: host ?? undefined,
    port: port ? Number(port) : undefined,
    user,
    password,
    database: database ?? undefined,
    ssl: ssl as pg.PoolConfig['ssl'],
    application_name: application_name ?? 'impact-narrative-studio',
    max: options.max,
    // The CLI's migration lock is released only when its pool may close (concurrent `migrate deploy`s).
    allowExitOnIdle: options.exitOnIdle,
  }
}

export function postgresAdapter(url: string, max?: number) {
  return new PrismaPg(postgresPoolConfig(url, { max }))
}

// pg's catalog types `name` (oid 19) and `"char"` (oid 18) are text; the adapter of Prisma 6.19 cannot
// read them (a known bug of that version), and Migrate's own queries select them.
const CATALOG_TEXT_TYPES = new Set([18, 19])
const TEXT = 25

function catalogAsText(result: pg.QueryResult) {
  for (const field of result?.fields ?? []) if (CATALOG_TEXT_TYPES.has(field.dataTypeID)) field.dataTypeID = TEXT
  return result
}

class CatalogAsTextClient extends pg.Client {
  // The adapter awaits query(config); pg's pool calls query(text, values, callback).
  // @ts-expect-error one implementation for pg's overloads
  override query(...args: unknown[]) {
    const callback = args.at(-1)
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: Error, result: pg.QueryResult) => callback(error, error ? result : catalogAsText(result))
      return (super.query as (...a: unknown[]) => void)(...args)
    }
    return (super.query as (...a: unknown[]) => Promise<pg.QueryResult>)(...args).then(catalogAsText)
  }
}

/** For Prisma's CLI: catalog columns as text, a pool that lets go, the shadow database dropped after its pool closes. */
export function postgresMigrationAdapter(url: string) {
  const config = { ...postgresPoolConfig(url, { exitOnIdle: true }), Client: CatalogAsTextClient as unknown as typeof pg.Client }
  return new (class extends PrismaPg {
    override async connectToShadowDb() {
      const admin = await this.connect()
      const database = `prisma_migrate_shadow_db_${crypto.randomUUID().replaceAll('-', '')}`
      await admin.executeScript(`CREATE DATABASE "${database}"`)
      const shadow = await new PrismaPg({ ...config, database }).connect()
      const closeShadow = shadow.dispose.bind(shadow)
      shadow.dispose = async () => {
        await closeShadow()
        await admin.executeScript(`DROP DATABASE "${database}"`)
        await admin.dispose()
      }
      return shadow
    }
  })(config)
}
