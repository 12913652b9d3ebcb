import type { EvidenceCheck, EvidenceInput } from '~/server/coach/contract.server'
import { canGiveSecondOpinion, secondOpinion } from '~/server/coach/second-opinion.server'
import { enforceCheckRateLimit } from '~/server/edge/limits.server'
import { runWork } from '~/server/platform/work-pool.server'
import type { EvidenceCheckRequest } from '~/shared/evidence'

// The evidence coach (docs/decisions/032): never a reason to refuse a generation; a model's second opinion is asked here.

export async function answerEvidenceCheck(userId: string, { secondOpinion: wanted, ...input }: EvidenceCheckRequest, signal: AbortSignal) {
  await enforceCheckRateLimit(userId, { secondOpinion: Boolean(wanted) && canGiveSecondOpinion() })
  const check = await runWork<EvidenceCheck>('check-evidence', input satisfies EvidenceInput, {
    signal,
    owner: userId,
    tooMuch: 'The evidence check took too long. Shorten the longest field and check again.',
  })
  const opinion = wanted ? await secondOpinion(input, signal) : null
  return opinion ? { ...check, secondOpinion: opinion } : check
}
