import crypto from 'node:crypto'
import { connectBus, disconnectBus, publish } from '~/server/cluster/bus.server'
import {
  REPLICA_ID,
  type BusMessage,
  type Cluster,
  type Counter,
  type RateLimitStore,
  type StreamSlot,
} from '~/server/cluster/contract.server'
import { lockInvariant, prisma } from '~/server/platform/db.server'
import { errorDetails, log } from '~/server/platform/logger.server'

// Replicas on one PostgreSQL database (decision 044): shared tables for what they agree on, LISTEN/NOTIFY
// (bus.server.ts) for what they tell each other. PostgreSQL's SQL only.

/** `url`: the database's, for the bus's own connection; `deliver`: where the others' messages go. */
export function createReplicas(url: string, deliver: (message: BusMessage) => void): Cluster {
  const table = createTableStore()
  return {
    limits: { ...table, size: () => prisma.rateLimit.count(), purge: purgeExpiredCounters },
    streams: { take: takeRow, purge: purgeStreamSlots },
    bus: { publish, connect: () => connectBus(REPLICA_ID, url, deliver), disconnect: disconnectBus },
    recovery: { alone: false, join: joinReplicas, leave: leaveReplicas, live: liveReplicas },
  }
}

// Heartbeats (docs/decisions/036): a process unseen for STALE_MS is dead, and another fails and refunds
// the generations it was running.

const HEARTBEAT_MS = 2_000
const STALE_MS = 10_000

let heartbeat: NodeJS.Timeout | undefined

async function joinReplicas(recover: () => Promise<void>) {
  await beat()
  heartbeat = setInterval(() => {
    beat()
      .then(recover)
      .catch((error) => log('error', 'replica.heartbeat_failed', errorDetails(error)))
  }, HEARTBEAT_MS)
  heartbeat.unref()
}

async function leaveReplicas() {
  clearInterval(heartbeat)
  await prisma.replica.deleteMany({ where: { id: REPLICA_ID } })
}

async function beat() {
  const seenAt = new Date()
  await prisma.replica.upsert({ where: { id: REPLICA_ID }, create: { id: REPLICA_ID, seenAt }, update: { seenAt } })
  await prisma.replica.deleteMany({ where: { seenAt: { lt: new Date(seenAt.getTime() - 10 * STALE_MS) } } })
}

/** The replicas whose generations are alive: this one, and every other seen lately. */
async function liveReplicas(): Promise<string[]> {
  const seen = await prisma.replica.findMany({ where: { seenAt: { gte: new Date(Date.now() - STALE_MS) } }, select: { id: true } })
  return [...new Set([REPLICA_ID, ...seen.map(({ id }) => id)])]
}

// One "RateLimit" row per key, changed by single statements (an upsert locks its row), so replicas count together.

type Row = { count: number | bigint; resetAt: number | bigint }
const counter = (row: Row): Counter => ({ count: Number(row.count), resetAt: Number(row.resetAt) })

function createTableStore(): RateLimitStore {
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
    clear() {},
  }
}

/** Counters whose window is over are never read again: the hourly purge deletes them. */
export async function purgeExpiredCounters() {
  return prisma.$executeRaw`DELETE FROM "RateLimit" WHERE "resetAt" <= ${Date.now()}::bigint`
}

// A person's open streams across replicas: an OpenStream row each, taken under the person's lock so two
// replicas cannot both take the last one (docs/decisions/038).

/** This replica's rows, by id, with whose they are: what its purge keeps. */
const rowsHere = new Map<string, string>()

async function takeRow(userId: string, max: number, always: boolean): Promise<StreamSlot | null> {
  // Those open here are counted without the database: past the cap already, no transaction is spent.
  if (!always && [...rowsHere.values()].filter((owner) => owner === userId).length >= max) return null
  const id = crypto.randomUUID()
  // Held from before the insert, so that the purge never takes a row being written.
  rowsHere.set(id, userId)
  let taken = false
  try {
    const live = always ? [] : await liveReplicas()
    taken = await prisma.$transaction(async (tx) => {
      await lockInvariant(tx, 'streams', userId)
      // A dead replica's rows are left until the purge: its streams closed with it.
      if (!always && (await tx.openStream.count({ where: { userId, replica: { in: live } } })) >= max) return false
      await tx.openStream.create({ data: { id, userId, replica: REPLICA_ID } })
      return true
    })
  } finally {
    if (!taken) rowsHere.delete(id)
  }
  if (!taken) return null
  let released = false
  return {
    release() {
      if (released) return
      released = true
      rowsHere.delete(id)
      // Should this fail, the purge at the next beat deletes the row.
      prisma.openStream
        .deleteMany({ where: { id } })
        .catch((error) => log('error', 'stream.release_failed', { userId, ...errorDetails(error) }))
    },
  }
}

/** At every beat: dead replicas' rows, and this one's rows of streams no longer open (a failed release). */
async function purgeStreamSlots() {
  await prisma.openStream.deleteMany({ where: { replica: { notIn: await liveReplicas() } } })
  await prisma.openStream.deleteMany({ where: { replica: REPLICA_ID, id: { notIn: [...rowsHere.keys()] } } })
}
