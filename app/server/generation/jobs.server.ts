import { isAbortError, getEngine } from '~/server/generation/engine.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { getEnv } from '~/server/platform/env.server'
import { NARRATIVE_TEXT_MAX } from '~/shared/narrative-text'
import type { NarrativeInput } from '~/shared/narrative-schema'
import {
  findInterruptedNarratives,
  finishNarrative,
  insertGeneratingNarrative,
  markNarrativeFailed,
  SavedLimitError,
  toNarrativeColumns,
} from '~/server/narratives/narratives.server'
import { prisma } from '~/server/platform/db.server'
import { ACCOUNT_DISABLED } from '~/server/accounts/auth.server'
import { claimQuota, type QuotaRefusal, refundQuota, whyRefused } from '~/server/generation/quota.server'
import { runOutsideRequest } from '~/server/platform/request-context.server'
import { createInProcessRegistry, type GenerationEvent, type GenerationRegistry } from '~/server/generation/registry.server'

export type GenerationStatus = 'generating' | 'complete' | 'stopped' | 'failed'


export const GENERATION_FAILED = 'An error occurred while generating the narrative. Please try again.'
export const QUOTA_EXHAUSTED = 'You have reached your daily limit of narratives. Please try again tomorrow.'
export const TOO_MANY_RUNNING = 'You already have two narratives being written. Please wait for one to finish.'
export const INSTANCE_EXHAUSTED = 'This site has written as many narratives today as its administrator allows. Please try again tomorrow.'

/** A generation refused before it started: `status` is what an HTTP answer says (429 for limits that pass with time). */
export class QuotaError extends Error {
  constructor(
    message: string,
    readonly status: 403 | 429 = 429,
  ) {
    super(message)
  }
}

function refusal(reason: QuotaRefusal): QuotaError {
  if (reason === 'disabled') return new QuotaError(ACCOUNT_DISABLED, 403)
  if (reason === 'saved') return new QuotaError(new SavedLimitError().message, 403)
  return new QuotaError({ running: TOO_MANY_RUNNING, daily: QUOTA_EXHAUSTED, instance: INSTANCE_EXHAUSTED }[reason])
}

/** A job this process runs. */
type Generation = {
  id: string
  userId: string
  /** The text so far lives here until the generation ends; a crash marks the record failed (and refunds). */
  pieces: string[]
  controller: AbortController
  finished: Promise<void>
}

// The one place the registry is chosen (see GenerationRegistry for what a shared one must do).
const registry: GenerationRegistry = createInProcessRegistry()
const jobs = new Map<string, Generation>()

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
    const reason = await whyRefused(userId)
    log('warn', 'quota.refused', { userId, reason })
    throw refusal(reason)
  }
  const generation: Generation = {
    id: narrative.id,
    userId,
    pieces: [],
    controller: new AbortController(),
    finished: Promise.resolve(),
  }
  jobs.set(generation.id, generation)
  registry.open(generation.id, { userId, abort: () => generation.controller.abort() })
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

/** Why a generation was cut short by its bounds rather than stopped by its owner. */
class GenerationLimitError extends Error {}

type FinalStatus = Exclude<GenerationStatus, 'generating'>

/** Writes, saves and, on failure, refunds. Never rejects: nothing here may take the process down. */
async function run(generation: Generation, input: NarrativeInput, quotaDay: string) {
  const { GENERATION_TIMEOUT_MS } = getEnv()
  const deadline = setTimeout(
    () => generation.controller.abort(new GenerationLimitError(`The generation ran longer than ${GENERATION_TIMEOUT_MS} ms`)),
    GENERATION_TIMEOUT_MS,
  )
  let status = await write(generation, input)
  clearTimeout(deadline)
  try {
    await finish(generation, status)
  } catch (error) {
    log('error', 'generation.save_failed', { userId: generation.userId, narrativeId: generation.id, ...errorDetails(error) })
    status = 'failed'
    await attempt('generation.mark_failed_failed', generation, () => markNarrativeFailed(generation.id))
    registry.close(generation.id, { type: 'error', error: GENERATION_FAILED })
  } finally {
    registry.remove(generation.id)
    jobs.delete(generation.id)
  }
  if (status === 'failed') await attempt('generation.refund_failed', generation, () => refundQuota(generation.userId, quotaDay))
}

/** Streams the engine's text into the job, within the bounds of time and size. */
async function write(generation: Generation, input: NarrativeInput): Promise<FinalStatus> {
  const { signal } = generation.controller
  let size = 0
  try {
    for await (const text of getEngine().stream(input, signal)) {
      size += text.length
      if (size > NARRATIVE_TEXT_MAX) {
        generation.controller.abort(new GenerationLimitError(`The answer grew past ${NARRATIVE_TEXT_MAX} characters`))
        throw signal.reason
      }
      generation.pieces.push(text)
      registry.append(generation.id, text)
    }
    return 'complete'
  } catch (error) {
    const limit = signal.reason instanceof GenerationLimitError ? signal.reason : undefined
    if (!limit && (isAbortError(error) || signal.aborted)) return 'stopped'
    log('error', 'generation.failed', { userId: generation.userId, narrativeId: generation.id, ...errorDetails(limit ?? error) })
    return 'failed'
  }
}

/** Runs a step of the clean-up whose failure is logged: recovery at the next start finishes the job. */
async function attempt(event: string, generation: Generation, step: () => Promise<unknown>) {
  try {
    await step()
  } catch (error) {
    log('error', event, { userId: generation.userId, narrativeId: generation.id, ...errorDetails(error) })
  }
}

async function finish(generation: Generation, status: FinalStatus) {
  const text = generation.pieces.join('')
  await finishNarrative(generation.id, status, text)
  registry.close(generation.id, status === 'failed' ? { type: 'error', error: GENERATION_FAILED } : { type: 'done', status, text })
  log('info', 'generation.finished', { narrativeId: generation.id, status, pieces: generation.pieces.length })
}

/**
 * Replays the pieces after `afterSeq` and then follows the live ones. Returns null when the
 * generation is not running (finished: read the database instead).
 */
export function subscribe(id: string, afterSeq: number, listener: (event: GenerationEvent) => void) {
  return registry.subscribe(id, afterSeq, listener)
}

/** The user's Stop: aborts the model call; the text so far is saved as stopped. */
export function stopGeneration(id: string, userId: string): boolean {
  return registry.stop(id, userId)
}

/** Stops every generation of the user this process runs (an administrator disabled them). */
export function stopGenerationsOf(userId: string) {
  for (const generation of jobs.values()) if (generation.userId === userId) registry.stop(generation.id, userId)
}

export function waitForGeneration(id: string): Promise<void> {
  return jobs.get(id)?.finished ?? Promise.resolve()
}

/** On shutdown: stop every running generation and wait until each is saved. */
export async function stopAllGenerations() {
  const all = [...jobs.values()]
  for (const generation of all) generation.controller.abort()
  await Promise.all(all.map((generation) => generation.finished))
}

/**
 * After a crash, rows still marked generating have no job behind them: they failed upstream of the
 * user, so they are marked failed and refunded.
 */
export async function recoverInterruptedGenerations() {
  const orphans = await findInterruptedNarratives(registry.runningIds())
  for (const orphan of orphans) {
    await markNarrativeFailed(orphan.id)
    if (orphan.quotaDay) await refundQuota(orphan.userId, orphan.quotaDay)
  }
  if (orphans.length) log('warn', 'generation.recovered', { count: orphans.length })
}
