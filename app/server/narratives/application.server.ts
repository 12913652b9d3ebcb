import { prisma } from '~/server/platform/db.server'
import { log } from '~/server/platform/logger.server'
import { RefusedError } from '~/server/platform/refused-error.server'
import { enforceEditRateLimit } from '~/server/edge/limits.server'
import { ownedBy, type Viewer } from '~/server/narratives/access.server'
import { parseBrief } from '~/server/narratives/alignment.server'
import { findConflictsInPool } from '~/server/narratives/consistency.server'
import { disclosureOf } from '~/server/narratives/disclosure.server'
import { claimsOfNarrative } from '~/server/narratives/narratives.server'
import { stagesOf, toApiStages } from '~/server/narratives/stages.server'
import { insertWrittenAnswer } from '~/server/narratives/variants.server'
import type { Claim } from '~/server/narratives/claims.server'
import { overLimitMessage } from '~/shared/application'
import { MANUAL_ENGINE } from '~/shared/engines'
import { isStage } from '~/shared/stages'
import { formatContacts } from '~/shared/contacts'
import { fits, measure, questionLimit, QUESTION_FORMAT, toApiLimit } from '~/shared/variant-limits'

// A narrative written for a brief, seen as the application it starts (docs/decisions/054).

export type Application = NonNullable<Awaited<ReturnType<typeof getApplication>>>
export type ApplicationQuestion = Application['questions'][number]

/** Null when the viewer may not see the narrative, or it was written for no brief. A file needs no `withConflicts`. */
export async function getApplication({
  id,
  viewer,
  signal,
  withConflicts = true,
}: {
  id: string
  viewer: Viewer
  signal?: AbortSignal
  withConflicts?: boolean
}) {
  const narrative = await prisma.narrative.findFirst({ where: { id, ...ownedBy(viewer) } })
  const brief = narrative && parseBrief(narrative.brief)
  if (!narrative || !brief) return null
  const claims = claimsOfNarrative(narrative)
  const [disclosure, stages, answers] = await Promise.all([disclosureOf(narrative, claims), stagesOf(narrative), newestAnswers(id)])
  const answered = brief.questions.map((question, index) => {
    const answer = answers.get(question.text) ?? null
    return { index, text: question.text, limit: questionLimit(question), answer }
  })
  const writing = narrative.status === 'generating'
  const conflicts =
    withConflicts && !writing
      ? await findConflictsInPool(
          {
            texts: [
              { question: null, text: narrative.generatedNarrative, claims },
              // An answer's claims not yet found are found in the pool, not here.
              ...answered.flatMap(({ index, answer }) =>
                answer ? [{ question: index, text: answer.text, claims: keptClaims(answer) }] : [],
              ),
            ],
            inputs: narrative,
          },
          { signal, owner: viewer.id },
        )
      : new Map()
  return {
    id: narrative.id,
    company: narrative.company,
    writing,
    stage: isStage(narrative.stage) ? narrative.stage : 'drafting',
    stages,
    deadline: narrative.deadline,
    amountRequested: narrative.amountRequested,
    funder: { id: narrative.funderId, name: narrative.funderName ?? brief.funder },
    narrative: { text: narrative.generatedNarrative, conflicts: conflicts.get(null) ?? [] },
    questions: answered.map(({ index, text, limit, answer }) => ({
      index,
      text,
      limit,
      answer: answer && { id: answer.id, text: answer.text, count: measure(answer.text, limit), withinLimit: fits(answer.text, limit) },
      conflicts: conflicts.get(index) ?? [],
    })),
    disclosure,
    engine: narrative.engine,
    contacts: formatContacts(narrative),
    website: narrative.website,
  }
}

const keptClaims = (answer: { claims: string | null }): Claim[] | null =>
  answer.claims === null ? null : (JSON.parse(answer.claims) as Claim[])

/** Each question's newest answer, by its text: the ids are read first (a question keeps few), then only those answers. */
async function newestAnswers(narrativeId: string) {
  const kept = await prisma.narrativeVariant.findMany({
    where: { narrativeId, format: QUESTION_FORMAT, status: 'complete' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, question: true },
  })
  const newest = new Map<string, string>()
  for (const { id, question } of kept) if (question !== null && !newest.has(question)) newest.set(question, id)
  const rows = await prisma.narrativeVariant.findMany({
    where: { id: { in: [...newest.values()] } },
    select: { id: true, question: true, text: true, claims: true },
  })
  return new Map(rows.map((row) => [row.question ?? '', row]))
}

/** Null when the question is not the viewer's to answer; refused over its limit, and while the narrative is written. */
export async function saveAnswer({ id, viewer, index, text }: { id: string; viewer: Viewer; index: number; text: string }) {
  await enforceEditRateLimit(viewer.id)
  const narrative = await prisma.narrative.findFirst({ where: { id, ...ownedBy(viewer) } })
  const question = narrative && parseBrief(narrative.brief)?.questions[index]
  if (!narrative || !question) return null
  if (narrative.status === 'generating') throw new RefusedError(STILL_WRITING, 409)
  const limit = questionLimit(question)
  if (!fits(text, limit)) throw new RefusedError(overLimitMessage(text, limit), 400, undefined, 'text')
  const answerId = await insertWrittenAnswer({ narrative, question: question.text, limit, text, engine: MANUAL_ENGINE })
  log('info', 'narrative.answer_saved', { userId: viewer.id, narrativeId: id, question: index, answerId })
  return answerId
}

export const STILL_WRITING = 'The narrative is still being written: save the answer once it is done.'

export function toApiApplication(application: Application) {
  return {
    stage: application.stage,
    stages: toApiStages(application.stages),
    deadline: application.deadline,
    amountRequested: application.amountRequested,
    funder: application.funder,
    narrative: application.narrative,
    questions: application.questions.map(toApiQuestion),
    disclosure: application.disclosure,
  }
}

export function toApiQuestion({ index, text, limit, answer, conflicts }: ApplicationQuestion) {
  return { index, text, limit: toApiLimit(limit), answer, conflicts }
}
