import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

// prisma/schema.prisma (SQLite) is the one schema people edit; PostgreSQL's is made from it, so the two
// can never describe different tables. Only the provider, the client's folder and this header differ.
export const SQLITE_SCHEMA = 'prisma/schema.prisma'
export const POSTGRES_SCHEMA = 'prisma/postgres/schema.prisma'

const HEADER = '// Made from prisma/schema.prisma by `npm run db:postgres-schema`: edit that file, not this one.\n'

export function postgresSchema(sqlite: string): string {
  const replaced = [
    ['provider = "sqlite"', 'provider = "postgresql"'],
    ['output       = "../app/generated/sqlite"', 'output       = "../../app/generated/postgres"'],
  ].reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`${SQLITE_SCHEMA} no longer has ${from}: update ${import.meta.filename}`)
    return text.replace(from, to)
  }, sqlite)
  return HEADER + replaced.replace(/^\/\/ The source of truth:[^\n]*\n\/\/[^\n]*\n/m, '')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = postgresSchema(fs.readFileSync(SQLITE_SCHEMA, 'utf8'))
  fs.mkdirSync(path.dirname(POSTGRES_SCHEMA), { recursive: true })
  fs.writeFileSync(POSTGRES_SCHEMA, text)
  console.log(`Wrote ${POSTGRES_SCHEMA}.`)
}
