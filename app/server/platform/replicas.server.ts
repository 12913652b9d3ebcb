import crypto from 'node:crypto'
import { dialect, prisma } from '~/server/platform/db.server'
import { errorDetails, log } from '~/server/platform/logger.server'

// Which app processes serve the database (docs/decisions/036). Each generation row names the process
// writing it (its runner); a process beats every HEARTBEAT_MS, and one unseen for STALE_MS is dead:
// its generations have no one to finish them, and any other process fails and refunds them.

/** This process, for as long as it runs: a restart is a new replica. */
export const REPLICA_ID = crypto.randomUUID()
const HEARTBEAT_MS = 2_000
const STALE_MS = 10_000

let heartbeat: NodeJS.Timeout | undefined

/**
 * Starts beating, and on PostgreSQL calls `recover` (which clears up after dead replicas) at
 * every beat. On SQLite no other process serves the file, so there is nothing to beat for.
 */
export async function joinReplicas(recover: () => Promise<void>) {
  if (dialect !== 'postgres') return
  await beat()
  heartbeat = setInterval(() => {
    beat()
      .then(recover)
      .catch((error) => log('error', 'replica.heartbeat_failed', errorDetails(error)))
  }, HEARTBEAT_MS)
  heartbeat.unref()
}

/** On shutdown, after the generations are saved: the others need not wait for this one to go stale. */
export async function leaveReplicas() {
  clearInterval(heartbeat)
  if (dialect === 'postgres') await prisma.replica.deleteMany({ where: { id: REPLICA_ID } })
}

async function beat() {
  const seenAt = new Date()
  await prisma.replica.upsert({ where: { id: REPLICA_ID }, create: { id: REPLICA_ID, seenAt }, update: { seenAt } })
  await prisma.replica.deleteMany({ where: { seenAt: { lt: new Date(seenAt.getTime() - 10 * STALE_MS) } } })
}

/** The replicas whose generations are alive: this one, and on PostgreSQL every other seen lately. */
export async function liveReplicas(): Promise<string[]> {
  if (dialect !== 'postgres') return [REPLICA_ID]
  const seen = await prisma.replica.findMany({ where: { seenAt: { gte: new Date(Date.now() - STALE_MS) } }, select: { id: true } })
  return [...new Set([REPLICA_ID, ...seen.map(({ id }) => id)])]
}
