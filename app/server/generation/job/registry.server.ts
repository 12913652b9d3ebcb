import type { FinalEvent, GenerationEvent } from '~/server/generation/job/contract.server'

/** The generations this process writes; other replicas subscribe through relay.server.ts. */
export interface GenerationRegistry {
  open(id: string, owner: { userId: string; abort: () => void }): void
  append(id: string, text: string): void
  /** Piece numbers go on rising across a restart. */
  restart(id: string, reason: string): void
  close(id: string, final: FinalEvent): void
  /** A subscriber from now on reads the saved record instead. */
  remove(id: string): void
  /** Replays the pieces after `afterSeq` (after a `restart` if an attempt was discarded), then live; null when not here. */
  subscribe(id: string, afterSeq: number, listener: (event: GenerationEvent) => void): (() => void) | null
  /** False for anyone but the owner. */
  stop(id: string, userId: string): boolean
  /** Start-up recovery must leave these alone. */
  runningIds(): string[]
}

type Entry = {
  userId: string
  abort: () => void
  /** Only the current attempt's; `seq` numbers every piece ever appended. */
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
