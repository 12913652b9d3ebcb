import fs from 'node:fs'
import path from 'node:path'
import { defineConfig } from 'prisma/config'
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'
import { resolveDatabaseFile, DEFAULT_DATABASE_URL } from './app/server/platform/database-url.server'

// schema.prisma reads env("DATABASE_URL"); give the CLI the same default the app uses.
process.env.DATABASE_URL ||= DEFAULT_DATABASE_URL

// The CLI talks to SQLite through the same driver adapter as the app: no native engine to download.
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  async adapter() {
    const file = resolveDatabaseFile(process.env.DATABASE_URL!)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    return new PrismaBetterSQLite3({ url: file })
  },
})
