import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { draftVariant } from '~/server/generation/drafter/variant-drafter.server'
import { abortError, UnfitVariantError, type NarrativeEngine } from '~/server/generation/engines/contract.server'
import { createModelEngine } from '~/server/generation/engines/model.server'
import { answerQuestion } from '~/server/generation/variants/question-answer.server'
import { DRAFTER_ENGINE } from '~/shared/engines'
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
  stream: (input, signal, brief) => streamDraft(draftNarrative(input, brief), signal),
  streamVariant(task, signal) {
    const text = task.question
      ? answerQuestion(task.narrativeText, task.question, task.limit)
      : draftVariant(task.input, task.format, task.limit)
    if (text === null) throw new UnfitVariantError(task.limit)
    return streamDraft(text, signal)
  },
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
