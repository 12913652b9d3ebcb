import fs from 'node:fs'
import path from 'node:path'
import { defineConfig } from 'prisma/config'
import { DEFAULT_DATABASE_URL, SCHEMAS, databaseTarget } from './app/server/platform/database-url.server'
import { postgresMigrationAdapter, sqliteAdapter } from './app/server/platform/database-adapters.server'

// schema.prisma reads env("DATABASE_URL"); give the CLI the same default the app uses.
process.env.DATABASE_URL ||= DEFAULT_DATABASE_URL
const target = databaseTarget(process.env.DATABASE_URL)

// The CLI talks to the database through the same driver adapters as the app: no native engine to
// download. DATABASE_URL's scheme picks the schema, and with it the folder of migrations beside it.
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: SCHEMAS[target.kind],
  async adapter() {
    if (target.kind === 'postgres') return postgresMigrationAdapter(target.url)
    fs.mkdirSync(path.dirname(target.file), { recursive: true })
    return sqliteAdapter(target.file)
  },
})
