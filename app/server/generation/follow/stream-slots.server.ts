import crypto from 'node:crypto'
import { dialect, lockInvariant, prisma } from '~/server/platform/db.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { liveReplicas, REPLICA_ID } from '~/server/generation/job/replicas.server'

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

async function takeRow(userId: string, always: boolean): Promise<StreamSlot | null> {
  const id = crypto.randomUUID()
  const live = always ? [] : await liveReplicas()
  const taken = await prisma.$transaction(async (tx) => {
    await lockInvariant(tx, 'streams', userId)
    // A dead replica's rows are left until the purge: its streams closed with it.
    if (!always && (await tx.openStream.count({ where: { userId, replica: { in: live } } })) >= MAX_STREAMS_PER_USER) return false
    await tx.openStream.create({ data: { id, userId, replica: REPLICA_ID } })
    return true
  })
  if (!taken) return null
  let released = false
  return {
    release() {
      if (released) return
      released = true
      prisma.openStream
        .delete({ where: { id } })
        .catch((error) => log('error', 'stream.release_failed', { userId, ...errorDetails(error) }))
    },
  }
}

/** The slots of replicas that are no longer live: their streams ended with them. */
export async function purgeDeadStreamSlots() {
  if (dialect !== 'postgres') return
  await prisma.openStream.deleteMany({ where: { replica: { notIn: await liveReplicas() } } })
}
