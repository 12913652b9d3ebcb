import { cleanText } from '~/shared/text'
import type { SecondOpinion } from '~/shared/evidence'
import { getEngine } from '~/server/generation/engines/engine.server'
import type { EvidenceInput } from '~/server/coach/contract.server'
import { errorDetails, log } from '~/server/platform/logger.server'

// A model's remarks beside the rules (docs/decisions/032), asked only on request; a failure costs only the remarks.

const MAX_REMARKS = 3
const MAX_REMARK_CHARS = 300
/** What is read of the answer at most: three remarks and a margin. */
const MAX_ANSWER_CHARS = 3000

export function canGiveSecondOpinion(): boolean {
  return Boolean(getEngine().reviewEvidence)
}

/** The model's remarks; null when no model is configured. */
export async function secondOpinion(input: EvidenceInput, signal: AbortSignal): Promise<SecondOpinion | null> {
  const engine = getEngine()
  if (!engine.reviewEvidence) return null
  let answer = ''
  try {
    for await (const piece of engine.reviewEvidence(input, signal)) {
      answer += piece
      // Past three whole remarks, the rest would be thrown away: the person need not wait for it.
      if (answer.length >= MAX_ANSWER_CHARS || remarksOf(answer.slice(0, answer.lastIndexOf('\n') + 1)).length >= MAX_REMARKS) break
    }
  } catch (error) {
    log('warn', 'coach.second_opinion_failed', errorDetails(error))
    return { engine: engine.name, remarks: [], error: 'The model could not be asked just now. Try again in a few minutes.' }
  }
  return { engine: engine.name, remarks: remarksOf(answer) }
}

function remarksOf(answer: string): string[] {
  return answer
    .split(/\n+/)
    .map((line) =>
      cleanText(line)
        .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '')
        .trim(),
    )
    .filter(Boolean)
    .slice(0, MAX_REMARKS)
    .map((remark) => (remark.length > MAX_REMARK_CHARS ? `${remark.slice(0, MAX_REMARK_CHARS).trimEnd()}…` : remark))
}
