import { createHash } from 'node:crypto'
import { setImmediate } from 'node:timers/promises'
import { LRUCache } from 'lru-cache'
import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { draftVariant } from '~/server/generation/drafter/variant-drafter.server'
import { abortError, UnfitVariantError, type FunderBrief, type NarrativeEngine } from '~/server/generation/engines/contract.server'
import { createModelEngine } from '~/server/generation/engines/model.server'
import { answerQuestion } from '~/server/generation/variants/question-answer.server'
import { DRAFTER_ENGINE } from '~/shared/engines'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { getEnv } from '~/server/platform/env.server'

let engine: NarrativeEngine | undefined

/** The model when one is configured, else the offline drafter; chosen once. */
export function getEngine(): NarrativeEngine {
  engine ??= chooseEngine()
  return engine
}

function chooseEngine(): NarrativeEngine {
  const env = getEnv()
  return env.OPENAI_API_KEY || env.OPENAI_BASE_URL ? createModelEngine(env) : offlineDrafter
}

const DRAFT_PIECE_WORDS = 3
const DRAFT_PIECE_DELAY_MS = 12

/** Writes from the user's own inputs, streamed in small pieces like a model would. */
export const offlineDrafter: NarrativeEngine = {
  name: DRAFTER_ENGINE,
  async *stream(input, signal, brief, ownerId = '') {
    yield* streamDraft(await regenerated(ownerId, input, brief ?? null), signal)
  },
  streamVariant(task, signal) {
    const text = task.question ? answerQuestion(task.narrativeText, task.question, task.limit) : draftVariant(task)
    if (text === null) throw new UnfitVariantError(task.limit)
    return streamDraft(text, signal)
  },
}

/**
 * Each person's last draft of the same inputs, so Regenerate gives another arrangement, never the same bytes,
 * and nobody's draft moves for another's. Bounded and in memory: after a restart the same inputs draft the
 * same again, for reviewers and screenshots alike.
 */
const lastDrafts = new LRUCache<string, { variation: number; text: string }>({ max: 500 })
/** Arrangements tried for one that differs from the last draft (some inputs read the same in two). */
const MAX_ARRANGEMENTS = 6

async function regenerated(ownerId: string, input: NarrativeInput, brief: FunderBrief | null): Promise<string> {
  const key = createHash('sha256')
    .update(JSON.stringify([ownerId, input, brief]))
    .digest('base64url')
  const last = lastDrafts.get(key)
  let variation = last ? last.variation + 1 : 0
  let text = draftNarrative(input, brief, { variation })
  for (let tries = 1; last && text === last.text && tries < MAX_ARRANGEMENTS; tries++) {
    // A draft of the longest inputs takes tens of milliseconds: other requests go between the tries.
    await setImmediate()
    text = draftNarrative(input, brief, { variation: ++variation })
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
