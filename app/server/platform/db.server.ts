import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaClient } from '@prisma/client'
import { getEnv } from '~/server/platform/env.server'
import { serializeTransactions } from '~/server/platform/serialized-connection.server'

// synchronous=NORMAL in WAL mode keeps every committed transaction across a process crash (only an
// OS crash can lose the last ones); foreign keys are off by default in SQLite.
const PRAGMAS = ['PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL', 'PRAGMA foreign_keys = ON', 'PRAGMA busy_timeout = 5000']

async function createClient() {
  const adapter = serializeTransactions(new PrismaBetterSQLite3({ url: getEnv().databaseFile, timeout: 5000 }))
  const client = new PrismaClient({ adapter })
  for (const pragma of PRAGMAS) await client.$queryRawUnsafe(pragma)
  return client
}

declare global {
  // Survives module reloads in development so we keep one connection.
  var __prisma: Promise<PrismaClient> | undefined
}

export const prisma = await (globalThis.__prisma ??= createClient())
