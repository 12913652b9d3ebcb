import { dialect, prisma } from '~/server/platform/db.server'
import { resetRateLimitsForTests } from '~/server/edge/rate-limit.server'
import { settlePendingMail } from '~/server/accounts/email.server'

/**
 * Empties every table the migrations made, so each test starts from a clean database whatever ran
 * before it: read from the database itself, so a new table is never forgotten.
 */
export async function resetDatabase() {
  // Mail a previous test asked for is sent before the sink is emptied, never into this test.
  await settlePendingMail()
  if (dialect === 'postgres') {
    const tables = await prisma.$queryRaw<{ name: string }[]>`
      SELECT "tablename"::text AS "name" FROM pg_tables WHERE "schemaname" = 'public' AND "tablename" <> '_prisma_migrations'`
    await prisma.$executeRawUnsafe(`TRUNCATE ${tables.map(({ name }) => `"${name}"`).join(', ')}`)
  } else {
    const tables = await prisma.$queryRaw<{ name: string }[]>`
      SELECT "name" FROM sqlite_master WHERE "type" = 'table' AND "name" NOT LIKE 'sqlite_%' AND "name" <> '_prisma_migrations'`
    await prisma.$transaction(tables.map(({ name }) => prisma.$executeRawUnsafe(`DELETE FROM "${name}"`)))
  }
  globalThis.smtpSink.clear()
  resetRateLimitsForTests()
}

/**
 * A real database error on every UPDATE of `table`.`column` (where `when`, an SQL condition on NEW,
 * holds), as a full disk would answer: a trigger, in each database's own words.
 */
export async function refuseUpdates(name: string, table: string, column: string, when?: string) {
  for (const statement of refuseUpdatesSql(dialect, { name, table, column, when })) await prisma.$executeRawUnsafe(statement)
}

/** The statements of refuseUpdates, for a database of either kind. */
export function refuseUpdatesSql(
  kind: 'sqlite' | 'postgres',
  { name, table, column, when }: { name: string; table: string; column: string; when?: string },
) {
  if (kind === 'sqlite') {
    return [
      `CREATE TRIGGER "${name}" BEFORE UPDATE OF "${column}" ON "${table}" ${when ? `WHEN ${when}` : ''} BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`,
    ]
  }
  return [
    `CREATE OR REPLACE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk I/O error'; END $$`,
    `CREATE TRIGGER "${name}" BEFORE UPDATE OF "${column}" ON "${table}" FOR EACH ROW ${when ? `WHEN (${when})` : ''} EXECUTE FUNCTION "${name}"()`,
  ]
}

export async function allowUpdates(name: string, table: string) {
  await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "${name}"${dialect === 'postgres' ? ` ON "${table}"` : ''}`)
}

/** The columns of `table`, in the order they were made. */
export async function tableColumns(table: string): Promise<string[]> {
  const rows =
    dialect === 'postgres'
      ? await prisma.$queryRaw<{ name: string }[]>`
          SELECT "column_name"::text AS "name" FROM information_schema.columns WHERE "table_name" = ${table} ORDER BY "ordinal_position"`
      : await prisma.$queryRawUnsafe<{ name: string }[]>(`PRAGMA table_info("${table}")`)
  return rows.map(({ name }) => name)
}
