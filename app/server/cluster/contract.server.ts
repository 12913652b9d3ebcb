import crypto from 'node:crypto'

// What the app's processes share (docs/decisions/046-one-topology-switch.md): in memory for one process
// (single.server.ts), in shared tables and a bus for replicas (replicas.server.ts).

/** This process, for as long as it runs: a restart is a new replica. */
export const REPLICA_ID = crypto.randomUUID()

export type Counter = { count: number; resetAt: number }

/** Where attempts are counted: each operation atomic, so no replica lets through what another refused. */
export interface RateLimitStore {
  /** Counts `by` events (1 unless told; -1 takes one back) under `key`, in a fixed window its first event opens. */
  count(key: string, windowMs: number, by?: number): Promise<Counter>
  /** The count under `key`, without counting; null when its window is over. */
  peek(key: string): Promise<Counter | null>
  forget(key: string): Promise<void>
  /** The first moment `gapMs` after the last booked under `key`: booked unless over `maxWaitMs` away; returned either way. */
  book(key: string, gapMs: number, maxWaitMs: number): Promise<number>
  clear(): void
}

export type StreamSlot = { release(): void }

export type BusMessage = { type: string } & Record<string, unknown>

export interface Cluster {
  /** The rate limits' counts, and the sign-in slowdown's turns (decisions 015, 037). */
  limits: RateLimitStore & {
    size(): Promise<number>
    /** The hourly purge: counters whose window is over. */
    purge(): Promise<unknown>
  }
  /** A person's open event streams, counted over every process (decision 038). */
  streams: {
    /** A slot for one more of the user's streams; null when they have `max` open already, unless `always`. */
    take(userId: string, max: number, always: boolean): Promise<StreamSlot | null>
    /** At every beat: the slots of streams no longer open anywhere. */
    purge(): Promise<void>
  }
  /** News from one process to another (decision 038); what arrives goes to `onBusMessage`'s handlers. */
  bus: {
    /** To one replica, or to every other one; in the order published. */
    publish(message: BusMessage, to?: string): void
    connect(): Promise<void>
    disconnect(): Promise<void>
  }
  /** Which processes are alive, so that a dead one's generations are failed and refunded once (decision 036). */
  recovery: {
    /** True when this process is the only one: every generation there is runs here. */
    alone: boolean
    /** Starts beating, calling `recover` (which clears up after dead processes) at every beat. */
    join(recover: () => Promise<void>): Promise<void>
    /** On shutdown, after the generations are saved: the others need not wait for this one to go stale. */
    leave(): Promise<void>
    /** The processes whose generations are alive, this one first among them. */
    live(): Promise<string[]>
  }
}
