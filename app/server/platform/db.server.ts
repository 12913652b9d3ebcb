import { PrismaClient as PostgresClient } from '~/generated/postgres/client'
import { Prisma, PrismaClient } from '~/generated/sqlite/client'
import { postgresAdapter, sqliteAdapter } from '~/server/platform/database-adapters.server'
import { getEnv } from '~/server/platform/env.server'
import { serializeTransactions } from '~/server/platform/serialized-connection.server'

// Both clients come from one schema: the app is typed against SQLite's, and every query runs on both.
export { Prisma }
export type { Funder, Narrative, User } from '~/generated/sqlite/client'

// synchronous=NORMAL in WAL mode keeps every committed transaction across a process crash (only an
// OS crash can lose the last ones); foreign keys are off by default in SQLite.
const PRAGMAS = ['PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL', 'PRAGMA foreign_keys = ON', 'PRAGMA busy_timeout = 5000']

async function createClient(): Promise<PrismaClient> {
  const { database } = getEnv()
  if (database.kind === 'postgres') {
    // A burst of generations queues for connections and the claims' lock: Prisma's defaults refuse some (docs/PERFORMANCE.md).
    const client = new PostgresClient({
      adapter: postgresAdapter(database.url, getEnv().DATABASE_POOL_SIZE),
      transactionOptions: { maxWait: 10_000, timeout: 15_000 },
    })
    return client as unknown as PrismaClient
  }
  const client = new PrismaClient({ adapter: serializeTransactions(sqliteAdapter(database.file)) })
  for (const pragma of PRAGMAS) await client.$queryRawUnsafe(pragma)
  return client
}

declare global {
  var __prisma: Promise<PrismaClient> | undefined
}

export const prisma = await (globalThis.__prisma ??= createClient())

/** Which database DATABASE_URL names: where the SQL of the two differs, the caller picks by it. */
export const dialect = getEnv().database.kind

/** A case-insensitive LIKE on both: SQLite's LIKE is one (for ASCII letters); PostgreSQL's is not. */
export const LIKE = Prisma.raw(dialect === 'postgres' ? 'ILIKE' : 'LIKE')

/**
 * What must hold across every process that shares the database, each kept by letting one transaction
 * at a time check and change it (docs/decisions/035-every-limit-exact.md):
 * - claims: a user's daily, running and saved-narrative limits, and the instance's daily limit;
 * - accounts: the first sign-up becomes the administrator, and the last active administrator stays;
 * - funders: a user's saved funder briefs;
 * - streams: a user's open event streams (one lock per user: `of` names them).
 */
const INVARIANTS = { claims: 1, accounts: 2, funders: 3, streams: 4 } as const

/**
 * Holds `invariant` (for `of`) until `tx` ends. On PostgreSQL an advisory lock, as READ COMMITTED lets two
 * transactions each miss what the other has not committed; SQLite's run one at a time (decision 016).
 */
export async function lockInvariant(tx: Prisma.TransactionClient, invariant: keyof typeof INVARIANTS, of?: string) {
  if (dialect !== 'postgres') return
  // The two-key form is a key space of its own: (4, a user's hash) never meets the one-key locks.
  if (of === undefined) await tx.$executeRaw`SELECT pg_advisory_xact_lock(${INVARIANTS[invariant]})`
  else await tx.$executeRaw`SELECT pg_advisory_xact_lock(${INVARIANTS[invariant]}::int, hashtext(${of}))`
}
