import { isAbortError, getEngine } from '~/server/generation/engine.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import type { NarrativeInput } from '~/shared/narrative-schema'
import {
  countGeneratingNarratives,
  findInterruptedNarratives,
  finishNarrative,
  insertGeneratingNarrative,
  markNarrativeFailed,
  toNarrativeColumns,
} from '~/server/narratives/narratives.server'
import { prisma } from '~/server/platform/db.server'
import { claimQuota, MAX_RUNNING_GENERATIONS, refundQuota } from '~/server/generation/quota.server'
import { runOutsideRequest } from '~/server/platform/request-context.server'

export type GenerationStatus = 'generating' | 'complete' | 'stopped' | 'failed'

/** What subscribers receive: numbered text pieces, then one final event. */
export type GenerationEvent =
  | { type: 'delta'; seq: number; text: string }
  | { type: 'done'; status: 'complete' | 'stopped'; text: string }
  | { type: 'error'; error: string }

export const GENERATION_FAILED = 'An error occurred while generating the narrative. Please try again.'
export const QUOTA_EXHAUSTED = 'You have reached your daily limit of narratives. Please try again tomorrow.'
export const TOO_MANY_RUNNING = 'You already have two narratives being written. Please wait for one to finish.'

export class QuotaError extends Error {}

type Generation = {
  id: string
  userId: string
  engine: string
  /** The text so far lives here until the generation ends; a crash marks the record failed (and refunds). */
  pieces: string[]
  final: Extract<GenerationEvent, { type: 'done' | 'error' }> | null
  controller: AbortController
  listeners: Set<(event: GenerationEvent) => void>
  finished: Promise<void>
}

const running = new Map<string, Generation>()

/**
 * Validated input in, narrative id out: claims quota and creates the record in one transaction,
 * then writes the narrative in the background, detached from the request that asked for it.
 */
export async function startGeneration(userId: string, input: NarrativeInput) {
  await takeTurn()
  const engine = getEngine()
  const narrative = await prisma.$transaction(async (tx) => {
    const quotaDay = await claimQuota(tx, userId)
    if (!quotaDay) return null
    const id = await insertGeneratingNarrative(tx, { ...toNarrativeColumns(input), userId, engine: engine.name, quotaDay })
    return { id, quotaDay }
  })
  if (!narrative) {
    // Why the claim failed: the daily limit, or too many generations running.
    const message = (await countGeneratingNarratives(userId)) >= MAX_RUNNING_GENERATIONS ? TOO_MANY_RUNNING : QUOTA_EXHAUSTED
    log('warn', 'quota.refused', { userId, reason: message === QUOTA_EXHAUSTED ? 'daily_limit' : 'running' })
    throw new QuotaError(message)
  }
  const generation: Generation = {
    id: narrative.id,
    userId,
    engine: engine.name,
    pieces: [],
    final: null,
    controller: new AbortController(),
    listeners: new Set(),
    finished: Promise.resolve(),
  }
  running.set(generation.id, generation)
  // The job outlives the request that started it: it runs outside that request's context.
  generation.finished = runOutsideRequest(() => run(generation, input, narrative.quotaDay))
  log('info', 'generation.started', { userId, narrativeId: generation.id, engine: engine.name })
  return { id: generation.id, engine: engine.name, finished: generation.finished }
}

// Starting is the costly part of a generation (a transaction, then the model call). A burst of
// starts is let through a few per turn of the event loop, so the streams already running get their
// turn in between instead of stalling until the whole burst is through (docs/PERFORMANCE.md).
const STARTS_PER_TURN = 4
const waitingStarts: (() => void)[] = []

function takeTurn() {
  return new Promise<void>((resolve) => {
    waitingStarts.push(resolve)
    if (waitingStarts.length === 1) setImmediate(letStartsThrough)
  })
}

function letStartsThrough() {
  for (const resolve of waitingStarts.splice(0, STARTS_PER_TURN)) resolve()
  if (waitingStarts.length) setImmediate(letStartsThrough)
}

async function run(generation: Generation, input: NarrativeInput, quotaDay: string) {
  try {
    for await (const text of getEngine().stream(input, generation.controller.signal)) {
      generation.pieces.push(text)
      emit(generation, { type: 'delta', seq: generation.pieces.length, text })
    }
    await finish(generation, 'complete')
  } catch (error) {
    if (isAbortError(error) || generation.controller.signal.aborted) {
      await finish(generation, 'stopped')
    } else {
      log('error', 'generation.failed', { userId: generation.userId, narrativeId: generation.id, ...errorDetails(error) })
      await finish(generation, 'failed')
      await refundQuota(generation.userId, quotaDay)
    }
  } finally {
    running.delete(generation.id)
  }
}

async function finish(generation: Generation, status: Exclude<GenerationStatus, 'generating'>) {
  await finishNarrative(generation.id, status, generation.pieces.join(''))
  const final: Generation['final'] =
    status === 'failed' ? { type: 'error', error: GENERATION_FAILED } : { type: 'done', status, text: generation.pieces.join('') }
  generation.final = final
  emit(generation, final)
  log('info', 'generation.finished', { narrativeId: generation.id, status, pieces: generation.pieces.length })
}

function emit(generation: Generation, event: GenerationEvent) {
  for (const listener of generation.listeners) listener(event)
}

/**
 * Replays the pieces after `afterSeq` and then follows the live ones. Returns null when the
 * generation is not running in this process (finished: read the database instead).
 */
export function subscribe(id: string, afterSeq: number, listener: (event: GenerationEvent) => void) {
  const generation = running.get(id)
  if (!generation) return null
  const replay = generation.pieces.slice(afterSeq).join('')
  if (replay) listener({ type: 'delta', seq: generation.pieces.length, text: replay })
  if (generation.final) {
    listener(generation.final)
    return () => {}
  }
  generation.listeners.add(listener)
  return () => void generation.listeners.delete(listener)
}

/** The user's Stop: aborts the model call; the text so far is saved as stopped. */
export function stopGeneration(id: string, userId: string): boolean {
  const generation = running.get(id)
  if (!generation || generation.userId !== userId) return false
  generation.controller.abort()
  return true
}

export function waitForGeneration(id: string): Promise<void> {
  return running.get(id)?.finished ?? Promise.resolve()
}

/** On shutdown: stop every running generation and wait until each is saved. */
export async function stopAllGenerations() {
  const all = [...running.values()]
  for (const generation of all) generation.controller.abort()
  await Promise.all(all.map((generation) => generation.finished))
}

/**
 * After a crash, rows still marked generating have no job behind them: they failed upstream of the
 * user, so they are marked failed and refunded.
 */
export async function recoverInterruptedGenerations() {
  const orphans = await findInterruptedNarratives([...running.keys()])
  for (const orphan of orphans) {
    await markNarrativeFailed(orphan.id)
    if (orphan.quotaDay) await refundQuota(orphan.userId, orphan.quotaDay)
  }
  if (orphans.length) log('warn', 'generation.recovered', { count: orphans.length })
}
