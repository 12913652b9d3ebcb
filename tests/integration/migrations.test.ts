import { execFileSync } from 'node:child_process'
import Database from 'better-sqlite3'
import { inject } from 'vitest'

// Migrations are written by hand (docs/decisions/001): applied in order, they must give exactly the
// schema that schema.prisma describes.
it('the migrations build the schema of schema.prisma', () => {
  const expectedSql = execFileSync('npx', ['prisma', 'migrate', 'diff', '--from-empty', '--to-schema-datamodel', 'prisma/schema.prisma', '--script'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const expected = new Database(':memory:')
  expected.exec(expectedSql)
  const migrated = new Database(inject('templateDatabase'), { readonly: true })
  const schema = (db: Database.Database) =>
    db
      .prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name != '_prisma_migrations' ORDER BY name`)
      .all()
      .map((row) => ({ ...(row as { sql: string | null }), sql: (row as { sql: string | null }).sql?.replace(/\s+/g, ' ') }))
  expect(schema(migrated)).toEqual(schema(expected))
  migrated.close()
  expected.close()
}, 30_000)
