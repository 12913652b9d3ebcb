import { LRUCache } from 'lru-cache'
import { prisma } from '~/server/platform/db.server'

// Where the rate limits count (decision 037): in this process's memory with SQLite, in a table that
// every replica shares with PostgreSQL. rate-limit.server.ts picks one.

const MINUTE = 60_000

export type Counter = { count: number; resetAt: number }

/**
 * Where attempts are counted: each operation atomic, so that no replica lets through what another
 * already refused.
 */
export interface RateLimitStore {
  /** Counts `by` events (1 unless told; -1 takes one back) under `key`, in a fixed window its first event opens. */
  count(key: string, windowMs: number, by?: number): Promise<Counter>
  /** The count under `key`, without counting; null when its window is over. */
  peek(key: string): Promise<Counter | null>
  forget(key: string): Promise<void>
  /**
   * The first moment, from now, that is `gapMs` after the last one booked under `key`: booked, unless
   * it is more than `maxWaitMs` away. Returned either way.
   */
  book(key: string, gapMs: number, maxWaitMs: number): Promise<number>
  clear(): void
}

/** The most keys the memory store holds: about 20 MB at most. The least recently used go first. */
export const MEMORY_STORE_MAX_KEYS = 100_000

/**
 * lru-cache holds a fixed number of entries, each with its own time to live, and does constant work
 * per call: memory stays bounded however many addresses and emails arrive, with no sweep. A flood
 * of new keys can evict old counters early, but every key needs requests from an address that is
 * itself limited, so evicting much takes many addresses.
 */
export function createMemoryStore(maxKeys = MEMORY_STORE_MAX_KEYS): RateLimitStore & { size(): number } {
  const entries = new LRUCache<string, Counter>({ max: maxKeys, ttl: MINUTE })
  const live = (key: string) => {
    const entry = entries.get(key)
    return entry && entry.resetAt > Date.now() ? entry : undefined
  }
  return {
    async count(key, windowMs, by = 1) {
      const entry = live(key)
      if (entry) {
        entry.count = Math.max(0, entry.count + by)
        return { ...entry }
      }
      const opened = { count: Math.max(0, by), resetAt: Date.now() + windowMs }
      entries.set(key, opened, { ttl: windowMs })
      return { ...opened }
    },
    peek: async (key) => {
      const entry = live(key)
      return entry ? { ...entry } : null
    },
    forget: async (key) => void entries.delete(key),
    async book(key, gapMs, maxWaitMs) {
      const now = Date.now()
      const slot = Math.max(now, live(key)?.resetAt ?? 0)
      if (slot - now <= maxWaitMs) entries.set(key, { count: 0, resetAt: slot + gapMs }, { ttl: slot + gapMs - now })
      return slot
    },
    clear: () => entries.clear(),
    size: () => entries.size,
  }
}

// PostgreSQL's store: one row per key in "RateLimit", changed by single statements (an upsert locks its
// row), so replicas count together and none lets through what another has refused. PostgreSQL's SQL only.

type Row = { count: number | bigint; resetAt: number | bigint }
const counter = (row: Row): Counter => ({ count: Number(row.count), resetAt: Number(row.resetAt) })

export function createTableStore(): RateLimitStore {
  return {
    async count(key, windowMs, by = 1) {
      const now = Date.now()
      const [row] = await prisma.$queryRaw<Row[]>`
        INSERT INTO "RateLimit" ("key", "count", "resetAt") VALUES (${key}, GREATEST(0, ${by}::int), ${now + windowMs}::bigint)
        ON CONFLICT ("key") DO UPDATE SET
          "count" = CASE WHEN "RateLimit"."resetAt" > ${now}::bigint THEN GREATEST(0, "RateLimit"."count" + ${by}::int) ELSE excluded."count" END,
          "resetAt" = CASE WHEN "RateLimit"."resetAt" > ${now}::bigint THEN "RateLimit"."resetAt" ELSE excluded."resetAt" END
        RETURNING "count", "resetAt"`
      return counter(row)
    },
    async peek(key) {
      const [row] = await prisma.$queryRaw<Row[]>`
        SELECT "count", "resetAt" FROM "RateLimit" WHERE "key" = ${key} AND "resetAt" > ${Date.now()}::bigint`
      return row ? counter(row) : null
    },
    async forget(key) {
      await prisma.$executeRaw`DELETE FROM "RateLimit" WHERE "key" = ${key}`
    },
    // The row, locked, serialises bookings of one key across replicas: each sees the one before it.
    async book(key, gapMs, maxWaitMs) {
      return prisma.$transaction(async (tx) => {
        const now = Date.now()
        await tx.$executeRaw`INSERT INTO "RateLimit" ("key", "count", "resetAt") VALUES (${key}, 0, 0) ON CONFLICT ("key") DO NOTHING`
        const [row] = await tx.$queryRaw<Row[]>`SELECT "count", "resetAt" FROM "RateLimit" WHERE "key" = ${key} FOR UPDATE`
        const slot = Math.max(now, Number(row.resetAt))
        if (slot - now <= maxWaitMs) await tx.$executeRaw`UPDATE "RateLimit" SET "resetAt" = ${slot + gapMs}::bigint WHERE "key" = ${key}`
        return slot
      })
    },
    // The tests empty the table with every other one.
    clear() {},
  }
}

/** Counters whose window is over are never read again: the hourly purge deletes them. */
export async function purgeExpiredCounters() {
  return prisma.$executeRaw`DELETE FROM "RateLimit" WHERE "resetAt" <= ${Date.now()}::bigint`
}
