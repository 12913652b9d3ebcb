import { LRUCache } from 'lru-cache'
import { REPLICA_ID, type Cluster, type Counter, type RateLimitStore, type StreamSlot } from '~/server/cluster/contract.server'

// One process on a SQLite file: limits and streams in memory, no bus, no heartbeat; at start-up it fails and
// refunds every generation it is not running (decision 044).

const MINUTE = 60_000

export function createSingle(): Cluster {
  const memory = createMemoryStore()
  return {
    limits: { ...memory, size: async () => memory.size(), purge: async () => {} },
    streams: { take: async (userId, max, always) => takeInMemory(userId, max, always), purge: async () => {} },
    bus: { publish() {}, connect: async () => {}, disconnect: async () => {} },
    recovery: { alone: true, join: async () => {}, leave: async () => {}, live: async () => [REPLICA_ID] },
  }
}

/** The most keys the memory store holds: about 20 MB at most. The least recently used go first. */
export const MEMORY_STORE_MAX_KEYS = 100_000

/**
 * lru-cache bounds memory with constant work per call and no sweep. A flood of keys can evict counters early,
 * but every key needs requests from an address that is itself limited.
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

const openByUser = new Map<string, number>()

function takeInMemory(userId: string, max: number, always: boolean): StreamSlot | null {
  const open = openByUser.get(userId) ?? 0
  if (open >= max && !always) return null
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
