import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { inject } from 'vitest'

// Migrations are written by hand (docs/decisions/001): applied in order, they must give exactly the
// schema that schema.prisma describes.
it('the migrations build the schema of schema.prisma', () => {
  const expectedSql = execFileSync(
    'npx',
    ['prisma', 'migrate', 'diff', '--from-empty', '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  )
  const expected = new Database(':memory:')
  expected.exec(expectedSql)
  const migrated = new Database(inject('templateDatabase'), { readonly: true })
  const schema = (db: Database.Database) =>
    db
      .prepare(
        `SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name != '_prisma_migrations' ORDER BY name`,
      )
      .all()
      .map((row) => ({ ...(row as { sql: string | null }), sql: (row as { sql: string | null }).sql?.replace(/\s+/g, ' ') }))
  expect(schema(migrated)).toEqual(schema(expected))
  migrated.close()
  expected.close()
}, 30_000)

// SQLite cannot make a column nullable in place: 20261123100000_operator_controls rebuilds "User" and
// "PasswordReset". Dropping the old "User" must not cascade to the rows that point at it.
it('upgrading to the operator controls keeps every account, session, link and narrative', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ins-upgrade-'))
  const file = path.join(dir, 'app.db')
  const deploy = (migrations: string[]) => {
    fs.rmSync(path.join(dir, 'migrations'), { recursive: true, force: true })
    fs.mkdirSync(path.join(dir, 'migrations'))
    fs.copyFileSync('prisma/schema.prisma', path.join(dir, 'schema.prisma'))
    for (const name of [...migrations, 'migration_lock.toml'])
      fs.cpSync(path.join('prisma/migrations', name), path.join(dir, 'migrations', name), { recursive: true })
    execFileSync('npx', ['prisma', 'migrate', 'deploy', '--schema', path.join(dir, 'schema.prisma')], {
      env: { ...process.env, DATABASE_URL: `file:${file}` },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  }
  const all = fs
    .readdirSync('prisma/migrations')
    .filter((name) => /^\d+_/.test(name))
    .sort()
  const upgrade = all.indexOf('20261123100000_operator_controls')
  expect(upgrade).toBeGreaterThan(0)
  deploy(all.slice(0, upgrade))

  const now = new Date().toISOString()
  const before = new Database(file)
  before
    .prepare(
      `INSERT INTO "User" (id, email, firstName, lastName, passwordHash, isAdmin, termsAcceptedAt, quotaDay, quotaUsed, createdAt, updatedAt)
    VALUES ('u1', 'ada@example.org', 'Ada', 'Lovelace', 'hash', 1, ?, '2026-11-22', 3, ?, ?)`,
    )
    .run(now, now, now)
  before.prepare(`INSERT INTO "Session" (id, kind, userId, expiresAt) VALUES ('s1', 'cookie', 'u1', ?)`).run(now)
  before.prepare(`INSERT INTO "PasswordReset" (id, tokenHash, userId, expiresAt) VALUES ('r1', 'token-hash', 'u1', ?)`).run(now)
  before
    .prepare(
      `INSERT INTO "Narrative" (id, userId, company, contactName1, contactEmail1, missionStatement, keyPrograms, impactMetrics, tone, engine, updatedAt)
    VALUES ('n1', 'u1', 'Harvest Table', 'Maria', 'maria@example.org', 'M', 'K', 'I', 'professional', 'gpt-4', ?)`,
    )
    .run(now)
  before.close()

  deploy(all)
  const after = new Database(file, { readonly: true })
  try {
    expect(after.prepare('SELECT * FROM "User"').all()).toEqual([
      expect.objectContaining({
        id: 'u1',
        email: 'ada@example.org',
        passwordHash: 'hash',
        isAdmin: 1,
        termsAcceptedAt: now,
        quotaUsed: 3,
        dailyLimit: null,
        disabledAt: null,
        // Added since, by a later rebuild of the table: the answers' and variants' allowance, untouched.
        variantDay: null,
        variantsUsed: 0,
      }),
    ])
    expect(after.prepare('SELECT id, userId FROM "Session"').all()).toEqual([{ id: 's1', userId: 'u1' }])
    expect(after.prepare('SELECT id, purpose FROM "PasswordReset"').all()).toEqual([{ id: 'r1', purpose: 'reset' }])
    expect(after.prepare('SELECT id, userId FROM "Narrative"').all()).toEqual([{ id: 'n1', userId: 'u1' }])
    expect(after.prepare('PRAGMA foreign_key_check').all()).toEqual([])
  } finally {
    after.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
