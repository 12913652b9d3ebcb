import fs from 'node:fs'
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, postgresSchema } from '../../scripts/database/postgres-schema'

// One schema is edited; PostgreSQL's is made from it. A change to one alone would let the two
// databases hold different tables.
it("PostgreSQL's schema is the one made from SQLite's (npm run db:postgres-schema)", () => {
  expect(fs.readFileSync(POSTGRES_SCHEMA, 'utf8')).toBe(postgresSchema(fs.readFileSync(SQLITE_SCHEMA, 'utf8')))
})

it('names the same models, fields and indexes for both, differing only in the provider and the client', () => {
  const lines = (text: string) => text.split('\n').filter((line) => !line.startsWith('//') && !/provider|output/.test(line))
  expect(lines(fs.readFileSync(POSTGRES_SCHEMA, 'utf8'))).toEqual(lines(fs.readFileSync(SQLITE_SCHEMA, 'utf8')))
  expect(fs.readFileSync(POSTGRES_SCHEMA, 'utf8')).toContain('provider = "postgresql"')
})
