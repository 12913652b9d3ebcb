import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { DraftRequest } from '~/server/generation/engines/contract.server'
import {
  abortError,
  UnansweredQuestionError,
  UnfitVariantError,
  type FunderBrief,
  type NarrativeEngine,
  type VariantTask,
} from '~/server/generation/engines/contract.server'
import { createModelEngine } from '~/server/generation/engines/model.server'
import { DRAFTER_ENGINE } from '~/shared/engines'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { getEnv, modelConfigured } from '~/server/platform/env.server'
import { runWork } from '~/server/platform/work-pool.server'
import type { Answer } from '~/server/generation/engines/contract.server'

let engine: NarrativeEngine | undefined

/** The model when one is configured, else the offline drafter; chosen once. */
export function getEngine(): NarrativeEngine {
  engine ??= chooseEngine()
  return engine
}

/** Answers and variants the offline drafter writes cost no one anything: they draw on no allowance. */
export const variantsCostNothing = () => getEngine().name === DRAFTER_ENGINE

function chooseEngine(): NarrativeEngine {
  const env = getEnv()
  return modelConfigured(env) ? createModelEngine(env) : offlineDrafter
}

const DRAFT_PIECE_WORDS = 3
const DRAFT_PIECE_DELAY_MS = 12

/** Writes from the user's own inputs in the work pool, streamed in small pieces like a model would. */
export const offlineDrafter: NarrativeEngine = {
  name: DRAFTER_ENGINE,
  async *stream(input, signal, brief, ownerId = '') {
    yield* streamDraft(await regenerated(ownerId, input, brief ?? null, signal), signal)
  },
  async *streamVariant(task, signal) {
    const text = task.question
      ? await answered(task, task.question, signal)
      : await runWork<string | null>('draft-variant', task, { signal, tooMuch: TOO_MUCH })
    if (text === null) throw new UnfitVariantError(task.limit)
    yield* streamDraft(text, signal)
  },
}

async function answered(task: VariantTask, question: string, signal: AbortSignal): Promise<string | null> {
  const answer = await runWork<Answer>('answer-question', task, { signal, tooMuch: TOO_MUCH })
  if ('unanswered' in answer) throw new UnansweredQuestionError(question)
  return 'text' in answer ? answer.text : null
}

const TOO_MUCH = 'The draft took too long to write. Shorten the longest fields and try again.'

function draft(request: DraftRequest, signal: AbortSignal) {
  return runWork<string>('draft-narrative', request, { signal, tooMuch: TOO_MUCH })
}

/** Each person's last draft of the same inputs, so Regenerate gives another; in memory, so after a restart they draft the same again. */
const lastDrafts = new LRUCache<string, { variation: number; text: string }>({ max: 500 })
/** Arrangements tried for one that differs from the last draft (some inputs read the same in two). */
const MAX_ARRANGEMENTS = 6

async function regenerated(ownerId: string, input: NarrativeInput, brief: FunderBrief | null, signal: AbortSignal): Promise<string> {
  const key = createHash('sha256')
    .update(JSON.stringify([ownerId, input, brief]))
    .digest('base64url')
  const last = lastDrafts.get(key)
  let variation = last ? last.variation + 1 : 0
  let text = await draft({ input, brief, variation }, signal)
  for (let tries = 1; last && text === last.text && tries < MAX_ARRANGEMENTS; tries++) {
    text = await draft({ input, brief, variation: ++variation }, signal)
  }
  lastDrafts.set(key, { variation, text })
  return text
}

async function* streamDraft(text: string, signal: AbortSignal) {
  const pieces = text.match(new RegExp(`(\\S+\\s*){1,${DRAFT_PIECE_WORDS}}`, 'g')) ?? []
  for (const piece of pieces) {
    if (signal.aborted) throw abortError()
    yield piece
    await delay(DRAFT_PIECE_DELAY_MS)
  }
}

function delay(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Tests swap the environment between cases. */
export function resetEngineForTests() {
  engine = undefined
}
