import { getEngine, variantsCostNothing } from '~/server/generation/engines/engine.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { getEnv } from '~/server/platform/env.server'
import { NARRATIVE_TEXT_MAX } from '~/shared/narrative-text'
import type { NarrativeInput } from '~/shared/narrative-schema'
import {
  findInterruptedNarratives,
  finishNarrative,
  insertGeneratingNarrative,
  markNarrativeFailed,
  toFormValues,
  toNarrativeColumns,
} from '~/server/narratives/narratives.server'
import {
  findInterruptedVariants,
  findVariantSource,
  finishVariant,
  insertGeneratingVariant,
  markVariantFailed,
} from '~/server/narratives/variants.server'
import { writeVariant } from '~/server/generation/variants/variant-writer.server'
import { cutToLimit, fits, limitOf, QUESTION_FORMAT, questionLimit, type Limit, type VariantRequest } from '~/shared/variant-limits'
import { engineBrief } from '~/server/funders/funders.server'
import { type ForFunder } from '~/server/narratives/narratives.server'
import { parseBrief } from '~/server/narratives/alignment.server'
import { claimGeneration } from '~/server/usage/quota.server'
import { runOutsideRequest } from '~/server/platform/request-context.server'
import { createInProcessRegistry, type GenerationRegistry } from '~/server/generation/job/registry.server'
import { cluster } from '~/server/cluster/cluster.server'
import { announceEnded, serveOtherReplicas, stopOnRunner, stopUserEverywhere } from '~/server/generation/job/relay.server'
import { GENERATION_FAILED, type FinalStatus, type GenerationEvent } from '~/server/generation/job/contract.server'
import { type JobOutput } from '~/server/generation/engines/contract.server'
import { isAbortError, UnansweredQuestionError, UnfitVariantError, type VariantTask } from '~/server/generation/engines/contract.server'
import { WorkRefusedError } from '~/server/platform/work-pool.server'
import { judgeBacking } from '~/server/narratives/judged-alignment.server'
import { RefusedError } from '~/server/platform/refused-error.server'

type Generation = {
  id: string
  userId: string
  /** The text so far of the current attempt; a crash marks the record failed (and refunds). */
  pieces: string[]
  controller: AbortController
  finished: Promise<void>
}

type Work = {
  kind: 'narrative' | 'variant'
  /** Streams the text into `out`; returns the final text when it is not simply what was streamed. */
  write(out: JobOutput, signal: AbortSignal): Promise<string | void>
  /** Keeps the outcome; a failed one is refunded in the same transaction. */
  save(status: FinalStatus, text: string): Promise<void>
  /** Fails and refunds a job whose outcome could not be saved, once. */
  markFailed(): Promise<void>
  /** A narrative stopped by its owner keeps its text; a variant cut short is no variant. */
  keepsStoppedText: boolean
}

// This process's generations; the other replicas follow and stop them through the relay.
const registry: GenerationRegistry = createInProcessRegistry()
const jobs = new Map<string, Generation>()
serveOtherReplicas({
  subscribe: (id, afterSeq, listener) => registry.subscribe(id, afterSeq, listener),
  stop: (id, userId) => registry.stop(id, userId),
  stopUser: (userId) => void stopHere(userId),
})

/** Claims quota and creates the record, then writes in the background; a brief's text over the call's word limit is cut at a sentence. */
export async function startGeneration(userId: string, input: NarrativeInput, funder: ForFunder | null = null) {
  await takeTurn()
  const engine = getEngine()
  const claimed = await claimGeneration(userId, { savesNarrative: true, allowance: 'narratives' }, (tx, quotaDay) =>
    insertGeneratingNarrative(tx, { ...toNarrativeColumns(input), ...funder, userId, engine: engine.name, quotaDay }),
  )
  const brief = parseBrief(funder?.brief ?? null)
  let briefColumn = funder?.brief ?? null
  const limit: Limit | null = brief?.maxWords ? { unit: 'words', max: brief.maxWords } : null
  const generation = launch(userId, claimed, {
    kind: 'narrative',
    async write(out, signal) {
      const text = await streamInto(engine.stream(input, signal, brief && engineBrief(brief), userId), out)
      // A model also judges which priorities the inputs answer: kept with the brief, for every later edit of the text.
      const judged = brief && (await judgeBacking(input, brief.priorities, signal))
      if (judged) briefColumn = JSON.stringify({ ...brief, judged })
      return limit && !fits(text, limit) ? (cutToLimit(text, limit) ?? text) : undefined
    },
    save: (status, text) =>
      finishNarrative(
        { id: claimed.id, status, text, inputs: { ...input, ...funder }, brief: briefColumn },
        { userId, quotaDay: claimed.quotaDay },
      ),
    markFailed: () => markNarrativeFailed(claimed.id, { userId, quotaDay: claimed.quotaDay }),
    keepsStoppedText: true,
  })
  log('info', 'generation.started', { userId, narrativeId: generation.id, engine: engine.name })
  return { id: generation.id, engine: engine.name, finished: generation.finished }
}

/** The variant a saved narrative is missing: 404 for one that is not the user's or has no text to work from. */
export class VariantSourceError extends RefusedError<404> {
  constructor(message: string) {
    super(message, 404)
  }
}

/** A variant counts as a generation: one of the day's quota, refunded if it fails (docs/decisions/018). */
export async function startVariant(userId: string, narrativeId: string, request: VariantRequest) {
  await takeTurn()
  const engine = getEngine()
  const source = await findVariantSource(userId, narrativeId)
  if (!source) throw new VariantSourceError('Narrative not found')
  const question = request.format === QUESTION_FORMAT ? parseBrief(source.brief)?.questions[request.question!] : undefined
  if (request.format === QUESTION_FORMAT && !question) throw new VariantSourceError('Question not found')
  const limit = question ? questionLimit(question) : limitOf(request)
  // Answers and variants draw on an allowance of their own; the offline drafter's cost nothing.
  const allowance = variantsCostNothing() ? 'free' : 'variants'
  const claimed = await claimGeneration(userId, { savesNarrative: false, allowance }, (tx, quotaDay) =>
    insertGeneratingVariant(tx, {
      narrativeId,
      userId,
      format: request.format,
      limit,
      engine: engine.name,
      quotaDay,
      question: question?.text ?? null,
      source: source.generatedNarrative,
    }),
  )
  const task: VariantTask = {
    input: toFormValues(source),
    narrativeText: source.generatedNarrative,
    format: request.format === QUESTION_FORMAT ? 'custom' : request.format,
    limit,
    ...(question ? { question: question.text } : {}),
  }
  const generation = launch(userId, claimed, {
    kind: 'variant',
    write: (out, signal) => writeVariant(engine, task, out, signal),
    save: (status, text) =>
      finishVariant(
        {
          id: claimed.id,
          status: status === 'complete' ? 'complete' : 'failed',
          text,
          inputs: { ...task.input, funderName: source.funderName, amountRequested: source.amountRequested },
        },
        { userId, quotaDay: claimed.quotaDay },
      ),
    markFailed: () => markVariantFailed(claimed.id, { userId, quotaDay: claimed.quotaDay }),
    keepsStoppedText: false,
  })
  log('info', 'variant.started', { userId, narrativeId, variantId: generation.id, engine: engine.name, format: request.format })
  return { id: generation.id, engine: engine.name, finished: generation.finished }
}

function launch(userId: string, claimed: { id: string }, work: Work): Generation {
  const generation: Generation = {
    id: claimed.id,
    userId,
    pieces: [],
    controller: new AbortController(),
    finished: Promise.resolve(),
  }
  jobs.set(generation.id, generation)
  registry.open(generation.id, { userId, abort: () => generation.controller.abort() })
  // The job outlives the request that started it: it runs outside that request's context.
  generation.finished = runOutsideRequest(() => run(generation, work))
  return generation
}

// A burst of starts goes a few per turn of the event loop, so running streams are not stalled (docs/PERFORMANCE.md).
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

/** Never rejects. */
async function run(generation: Generation, work: Work) {
  const { GENERATION_TIMEOUT_MS } = getEnv()
  const deadline = setTimeout(
    () => generation.controller.abort(new GenerationLimitError(`The generation ran longer than ${GENERATION_TIMEOUT_MS} ms`)),
    GENERATION_TIMEOUT_MS,
  )
  const outcome = await write(generation, work)
  let { status } = outcome
  if (status === 'stopped' && !work.keepsStoppedText) status = 'failed'
  clearTimeout(deadline)
  try {
    await finish(generation, work, { ...outcome, status })
  } catch (error) {
    log('error', 'generation.save_failed', { userId: generation.userId, [`${work.kind}Id`]: generation.id, ...errorDetails(error) })
    await attempt('generation.mark_failed_failed', generation, () => work.markFailed())
    registry.close(generation.id, { type: 'error', error: GENERATION_FAILED })
  } finally {
    registry.remove(generation.id)
    jobs.delete(generation.id)
  }
}

/** How a job ended; `failure` is what its follower is told when it failed. */
type Outcome = { status: FinalStatus; text: string; failure?: string }

async function write(generation: Generation, work: Work): Promise<Outcome> {
  const { signal } = generation.controller
  let size = 0
  const out: JobOutput = {
    append(text) {
      size += text.length
      if (size > NARRATIVE_TEXT_MAX) {
        generation.controller.abort(new GenerationLimitError(`The answer grew past ${NARRATIVE_TEXT_MAX} characters`))
        throw signal.reason
      }
      generation.pieces.push(text)
      registry.append(generation.id, text)
    },
    restart(reason) {
      size = 0
      generation.pieces = []
      registry.restart(generation.id, reason)
    },
  }
  try {
    const final = await work.write(out, signal)
    return { status: 'complete', text: final ?? generation.pieces.join('') }
  } catch (error) {
    const text = generation.pieces.join('')
    const limit = signal.reason instanceof GenerationLimitError ? signal.reason : undefined
    if (!limit && (isAbortError(error) || signal.aborted)) return { status: 'stopped', text }
    log('error', 'generation.failed', { userId: generation.userId, [`${work.kind}Id`]: generation.id, ...errorDetails(limit ?? error) })
    return {
      status: 'failed',
      text,
      failure:
        error instanceof UnfitVariantError || error instanceof UnansweredQuestionError || error instanceof WorkRefusedError
          ? error.message
          : GENERATION_FAILED,
    }
  }
}

async function streamInto(pieces: AsyncIterable<string>, out: JobOutput) {
  let whole = ''
  for await (const text of pieces) {
    out.append(text)
    whole += text
  }
  return whole
}

/** Runs a step of the clean-up whose failure is logged: recovery at the next start finishes the job. */
async function attempt(event: string, generation: Generation, step: () => Promise<unknown>) {
  try {
    await step()
  } catch (error) {
    log('error', event, { userId: generation.userId, id: generation.id, ...errorDetails(error) })
  }
}

async function finish(generation: Generation, work: Work, { status, text, failure = GENERATION_FAILED }: Outcome) {
  await work.save(status, text)
  registry.close(generation.id, status === 'failed' ? { type: 'error', error: failure } : { type: 'done', status, text })
  log('info', 'generation.finished', { [`${work.kind}Id`]: generation.id, status, pieces: generation.pieces.length })
}

/** Null when the generation is not running: read the database instead. */
export function subscribe(id: string, afterSeq: number, listener: (event: GenerationEvent) => void) {
  return registry.subscribe(id, afterSeq, listener)
}

/** False when no generation of the user's by that id runs here or on another replica. */
export async function stopGeneration(id: string, userId: string): Promise<boolean> {
  return registry.stop(id, userId) || (await stopOnRunner(id, userId))
}

/** The user was disabled or is deleting their account: resolves once their jobs here are saved; other replicas are told. */
export function stopGenerationsOf(userId: string): Promise<void> {
  stopUserEverywhere(userId)
  return stopHere(userId)
}

function stopHere(userId: string) {
  const theirs = [...jobs.values()].filter((generation) => generation.userId === userId)
  for (const generation of theirs) registry.stop(generation.id, userId)
  return Promise.all(theirs.map((generation) => generation.finished)).then(() => undefined)
}

export function waitForGeneration(id: string): Promise<void> {
  return jobs.get(id)?.finished ?? Promise.resolve()
}

export async function stopAllGenerations() {
  const all = [...jobs.values()]
  for (const generation of all) generation.controller.abort()
  await Promise.all(all.map((generation) => generation.finished))
}

/** After a crash: rows still generating with no live runner are failed and refunded once, by whichever replica comes first. */
export async function recoverInterruptedGenerations() {
  const running = registry.runningIds()
  const live = await cluster().recovery.live()
  const narratives = await findInterruptedNarratives(running, live)
  for (const orphan of narratives) await markNarrativeFailed(orphan.id, orphan)
  const variants = await findInterruptedVariants(running, live)
  for (const orphan of variants) await markVariantFailed(orphan.id, orphan)
  announceEnded([...narratives, ...variants].map((orphan) => orphan.id))
  const count = narratives.length + variants.length
  if (count) log('warn', 'generation.recovered', { count })
}
