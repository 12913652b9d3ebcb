import crypto from 'node:crypto'
import { dialect, lockInvariant, prisma } from '~/server/platform/db.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { liveReplicas, REPLICA_ID } from '~/server/platform/replicas.server'

// How many event streams a person has open, across every replica: each holds a slot while it is open.
// SQLite's one process counts in memory; with PostgreSQL each slot is an OpenStream row, taken under
// a lock of the person's, so two replicas cannot both take the last one (docs/decisions/038).

export const MAX_STREAMS_PER_USER = 8

export type StreamSlot = { release(): void }

/**
 * A slot for one more of the user's streams; null when they have MAX_STREAMS_PER_USER open already.
 * `always`: taken even then (the stream a generation's own POST opens, bounded by the generations a
 * user may run).
 */
export function takeStreamSlot(userId: string, { always = false } = {}): Promise<StreamSlot | null> {
  return dialect === 'postgres' ? takeRow(userId, always) : Promise.resolve(takeInMemory(userId, always))
}

const openByUser = new Map<string, number>()

function takeInMemory(userId: string, always: boolean): StreamSlot | null {
  const open = openByUser.get(userId) ?? 0
  if (open >= MAX_STREAMS_PER_USER && !always) return null
  openByUser.set(userId, open + 1)
  let released = false
  return {
    release() {
      if (released) return
      released = true
      const left = (openByUser.get(userId) ?? 1) - 1
      if (left) openByUser.set(userId, left)
      else openByUser.delete(userId)
    },
  }
}

/** This replica's rows, by id, with whose they are: what its purge keeps. */
const rowsHere = new Map<string, string>()

async function takeRow(userId: string, always: boolean): Promise<StreamSlot | null> {
  // Those open here are counted without the database: past the cap already, no transaction is spent.
  if (!always && [...rowsHere.values()].filter((owner) => owner === userId).length >= MAX_STREAMS_PER_USER) return null
  const id = crypto.randomUUID()
  // Held from before the insert, so that the purge never takes a row being written.
  rowsHere.set(id, userId)
  let taken = false
  try {
    const live = always ? [] : await liveReplicas()
    taken = await prisma.$transaction(async (tx) => {
      await lockInvariant(tx, 'streams', userId)
      // A dead replica's rows are left until the purge: its streams closed with it.
      if (!always && (await tx.openStream.count({ where: { userId, replica: { in: live } } })) >= MAX_STREAMS_PER_USER) return false
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

/**
 * At every beat: the rows of replicas that are no longer live (their streams ended with them), and this
 * replica's rows of streams no longer open (a release that failed).
 */
export async function purgeStreamSlots() {
  if (dialect !== 'postgres') return
  await prisma.openStream.deleteMany({ where: { replica: { notIn: await liveReplicas() } } })
  await prisma.openStream.deleteMany({ where: { replica: REPLICA_ID, id: { notIn: [...rowsHere.keys()] } } })
}
