import { cluster } from '~/server/cluster/cluster.server'
import type { StreamSlot } from '~/server/cluster/contract.server'

// How many event streams a person has open, across every replica: each holds a slot while it is open.
// The topology keeps the count (app/server/cluster/): in memory for one process, in OpenStream rows
// that replicas share (docs/decisions/038).

export const MAX_STREAMS_PER_USER = 8

/**
 * A slot for one more of the user's streams; null when they have MAX_STREAMS_PER_USER open already.
 * `always`: taken even then (the stream a generation's own POST opens, bounded by the generations a
 * user may run).
 */
export function takeStreamSlot(userId: string, { always = false } = {}): Promise<StreamSlot | null> {
  return cluster().streams.take(userId, MAX_STREAMS_PER_USER, always)
}
