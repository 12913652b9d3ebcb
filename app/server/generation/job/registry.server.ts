import type { FinalEvent, GenerationEvent } from '~/server/generation/job/contract.server'

/**
 * The generations being written, as streams and Stop see them. This process's memory suits one
 * server. With several replicas, a shared implementation (PostgreSQL's LISTEN/NOTIFY, say) must give a
 * subscriber on any replica the pieces after `afterSeq` and then the live ones, in order and each once,
 * and carry a Stop to the replica whose job is writing that generation.
 */
export interface GenerationRegistry {
  /** A generation this process has started writing; `abort` is how Stop reaches its job. */
  open(id: string, owner: { userId: string; abort: () => void }): void
  /** The next piece of its text. */
  append(id: string, text: string): void
  /** Discards its text so far; `reason` says why to whoever follows it. Piece numbers go on rising. */
  restart(id: string, reason: string): void
  /** Its final event, after its record is saved: subscribers get it, then nothing more. */
  close(id: string, final: FinalEvent): void
  /** Forgets it: a subscriber from now on reads the saved record instead. */
  remove(id: string): void
  /**
   * Replays the pieces after `afterSeq` (with a `restart` first when the subscriber saw an attempt since
   * discarded), then follows the live ones. Null when the generation is not running (finished: read the database instead). Returns the unsubscribe function.
   */
  subscribe(id: string, afterSeq: number, listener: (event: GenerationEvent) => void): (() => void) | null
  /** The owner's Stop; false for anyone else's or an unknown generation. */
  stop(id: string, userId: string): boolean
  /** Ids of the generations running here, which start-up recovery must leave alone. */
  runningIds(): string[]
}

type Entry = {
  userId: string
  abort: () => void
  /** The current attempt's pieces; `seq` numbers every piece ever appended. */
  pieces: string[]
  seq: number
  restartReason: string | null
  final: FinalEvent | null
  listeners: Set<(event: GenerationEvent) => void>
}

export function createInProcessRegistry(): GenerationRegistry {
  const entries = new Map<string, Entry>()
  const emit = (entry: Entry, event: GenerationEvent) => {
    for (const listener of entry.listeners) listener(event)
  }
  return {
    open(id, { userId, abort }) {
      entries.set(id, { userId, abort, pieces: [], seq: 0, restartReason: null, final: null, listeners: new Set() })
    },
    append(id, text) {
      const entry = entries.get(id)
      if (!entry) return
      entry.pieces.push(text)
      entry.seq++
      emit(entry, { type: 'delta', seq: entry.seq, text })
    },
    restart(id, reason) {
      const entry = entries.get(id)
      if (!entry) return
      entry.pieces = []
      entry.restartReason = reason
      emit(entry, { type: 'restart', reason })
    },
    close(id, final) {
      const entry = entries.get(id)
      if (!entry) return
      entry.final = final
      emit(entry, final)
    },
    remove: (id) => void entries.delete(id),
    subscribe(id, afterSeq, listener) {
      const entry = entries.get(id)
      if (!entry) return null
      // Pieces numbered up to `attemptStart` belong to discarded attempts.
      const attemptStart = entry.seq - entry.pieces.length
      if (entry.restartReason !== null && afterSeq > 0 && afterSeq <= attemptStart) {
        listener({ type: 'restart', reason: entry.restartReason })
      }
      const replay = entry.pieces.slice(Math.max(0, afterSeq - attemptStart)).join('')
      if (replay) listener({ type: 'delta', seq: entry.seq, text: replay })
      if (entry.final) {
        listener(entry.final)
        return () => {}
      }
      entry.listeners.add(listener)
      return () => void entry.listeners.delete(listener)
    },
    stop(id, userId) {
      const entry = entries.get(id)
      if (!entry || entry.userId !== userId) return false
      entry.abort()
      return true
    },
    runningIds: () => [...entries.keys()],
  }
}
