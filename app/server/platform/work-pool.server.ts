import os from 'node:os'
import { Piscina } from 'piscina'
import { errorDetails, log } from '~/server/platform/logger.server'
import { RefusedError } from '~/server/platform/refused-error.server'
import { Turns } from '~/server/platform/turns.server'
import { workerFile } from '~/server/platform/worker-source.server'

// Work whose cost grows with text a person sends runs in worker threads, not the event loop (docs/decisions/041);
// a task's time or heap overrun ends that worker, not the server.

/** The tasks the pool's worker (app/server/work/worker.ts) knows, by name. */
export type WorkTask =
  | 'warm'
  | 'narrative-docx'
  | 'narrative-pdf'
  | 'read-call'
  | 'check-evidence'
  | 'draft-narrative'
  | 'draft-variant'
  | 'answer-question'
  | 'text-columns'
  | 'claims-column'
  | 'compare-words'
  | 'find-conflicts'

export type WorkRequest = { task: WorkTask; input: unknown }

/** Past this a running task is ended (its worker with it) and answered 422. */
const TASK_TIME_MS = 10_000
/** Past this a task still waiting for a thread is answered 503: the pool is busy, the task is not at fault. */
const WAIT_TIME_MS = 30_000
/** A worker's JavaScript heap: past it Node ends the worker, and the task is answered 422. */
const WORKER_HEAP_MB = 128
/** Tasks waiting for a thread; past it new ones are answered 503 at once. */
const QUEUE_MAX = 64
/** Threads: one a core, at least two and at most four (the event loop and the generations need the cores too). */
export const WORK_THREADS = Math.max(2, Math.min(4, os.availableParallelism()))
/** A worker holds about 150 MB: one is always ready, the others start when work waits and stop after an idle minute. */
const IDLE_WORKER_MS = 60_000
/** Tasks one person may have running or waiting: one account's flood fills no more than its share. */
const PER_OWNER_MAX = 4

export class WorkRefusedError extends RefusedError<422 | 503> {}

export const BUSY_MESSAGE = 'The server is busy with other work right now. Try again in a minute.'
/** When a busy pool (503) asks a client to try again. */
const BUSY_RETRY_SECONDS = 30

export type WorkOptions = {
  /** The request's (or the job's) signal: the task ends when its client has gone. */
  signal?: AbortSignal
  /** What to tell the person when the task overruns its time or memory: what to do instead. */
  tooMuch: string
  timeoutMs?: number
  /** Who asked (a user's id), for PER_OWNER_MAX. */
  owner?: string
}

let pool: Piscina | undefined
/**
 * Our own queue: a task reaches piscina only when a thread is free, so its time limit counts from its start; and
 * piscina's maxQueue does not count tasks that carry an abort signal, as every one does.
 */
const threads = new Turns(WORK_THREADS)
const byOwner = new Map<string, number>()

let started: Promise<void> | undefined

/** Starts the always-ready worker; settles once it has loaded its fonts and word list. */
export function startWorkPool(): Promise<void> {
  started ??= getPool()
    .run({ task: 'warm', input: null } satisfies WorkRequest)
    .then(() => undefined)
  return started
}

export async function stopWorkPool() {
  await pool?.destroy()
  pool = undefined
  started = undefined
}

export async function runWork<T>(
  task: WorkTask,
  input: unknown,
  { signal, tooMuch, timeoutMs = TASK_TIME_MS, owner }: WorkOptions,
): Promise<T> {
  const pool = getPool()
  signal?.throwIfAborted()
  if (threads.waiting >= QUEUE_MAX || (owner !== undefined && (byOwner.get(owner) ?? 0) >= PER_OWNER_MAX)) throw busy(task, owner)
  countOwner(owner, 1)
  try {
    const turn = await threads.take(signal, WAIT_TIME_MS)
    if (turn === 'gone') throw signal?.reason
    if (turn === 'late') throw busy(task)
    const timeout = AbortSignal.timeout(timeoutMs)
    try {
      return (await pool.run({ task, input } satisfies WorkRequest, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout })) as T
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      throw refusalOf(task, error, timeout.aborted, tooMuch)
    } finally {
      threads.release()
    }
  } finally {
    countOwner(owner, -1)
  }
}

function busy(task: WorkTask, owner?: string) {
  log('warn', 'work.busy', { task, owner, waiting: threads.waiting })
  return new WorkRefusedError(BUSY_MESSAGE, 503, BUSY_RETRY_SECONDS)
}

function countOwner(owner: string | undefined, change: 1 | -1) {
  if (owner === undefined) return
  const now = (byOwner.get(owner) ?? 0) + change
  if (now > 0) byOwner.set(owner, now)
  else byOwner.delete(owner)
}

/** runWork, or `fallback` when the pool refuses (logged as it does): for work whose result can wait or be done without. */
export async function runWorkOr<T, F>(fallback: F, task: WorkTask, input: unknown, options: Omit<WorkOptions, 'tooMuch'>): Promise<T | F> {
  try {
    return await runWork<T>(task, input, { ...options, tooMuch: '' })
  } catch (error) {
    if (error instanceof WorkRefusedError) return fallback
    throw error
  }
}

function refusalOf(task: WorkTask, error: unknown, timedOut: boolean, tooMuch: string): unknown {
  const code = (error as { code?: string }).code
  if (timedOut || code === 'ERR_WORKER_OUT_OF_MEMORY') {
    log('warn', 'work.overrun', { task, reason: timedOut ? 'time' : 'memory' })
    return new WorkRefusedError(tooMuch, 422)
  }
  log('error', 'work.failed', { task, ...errorDetails(error) })
  return error
}

function getPool(): Piscina {
  pool ??= new Piscina({
    filename: workerSource().href,
    // Development and tests run the worker as TypeScript: tsx resolves its `~/` imports.
    execArgv: workerSource().pathname.endsWith('.ts') ? ['--import', 'tsx'] : [],
    minThreads: 1,
    maxThreads: WORK_THREADS,
    // Tasks may leave timers behind (the PDF builder yields): the worker's own event loop keeps running.
    atomics: 'disabled',
    idleTimeout: IDLE_WORKER_MS,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
  })
  return pool
}

let workerUrl: URL | undefined
const workerSource = () => (workerUrl ??= workerFile(import.meta.url, '../work/worker.ts', 'work-worker'))
