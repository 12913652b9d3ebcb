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
import { claimsOfVariant, insertWrittenAnswer, WRITTEN_VARIANTS } from '~/server/narratives/variants.server'
import { overLimitMessage } from '~/shared/application'
import { MANUAL_ENGINE } from '~/shared/engines'
import { isStage } from '~/shared/stages'
import { formatContacts } from '~/shared/contacts'
import { fits, measure, questionLimit, QUESTION_FORMAT, toApiLimit } from '~/shared/variant-limits'

// A narrative written for a brief, seen as the application it starts (docs/decisions/054).

export type Application = NonNullable<Awaited<ReturnType<typeof getApplication>>>
export type ApplicationQuestion = Application['questions'][number]

/** Null when the viewer may not see the narrative, or it was written for no brief. */
export async function getApplication({ id, viewer, signal }: { id: string; viewer: Viewer; signal?: AbortSignal }) {
  const narrative = await prisma.narrative.findFirst({
    where: { id, ...ownedBy(viewer) },
    include: { variants: { ...WRITTEN_VARIANTS, where: { ...WRITTEN_VARIANTS.where, format: QUESTION_FORMAT } } },
  })
  const brief = narrative && parseBrief(narrative.brief)
  if (!narrative || !brief) return null
  const claims = claimsOfNarrative(narrative)
  const [disclosure, stages] = await Promise.all([disclosureOf(narrative, claims), stagesOf(narrative)])
  const answered = brief.questions.map((question, index) => {
    // The variants come newest first: the first of a question's is its answer.
    const answer = narrative.variants.find((variant) => variant.question === question.text) ?? null
    return { index, text: question.text, limit: questionLimit(question), answer }
  })
  const conflicts = await findConflictsInPool(
    {
      texts: [
        { question: null, text: narrative.generatedNarrative, claims },
        ...answered.flatMap(({ index, answer }) =>
          answer ? [{ question: index, text: answer.text, claims: claimsOfVariant(answer, narrative) }] : [],
        ),
      ],
      inputs: narrative,
    },
    signal,
  )
  return {
    id: narrative.id,
    company: narrative.company,
    status: narrative.status,
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
    // For the file: what wrote the first draft, and the contact block.
    engine: narrative.engine,
    contacts: formatContacts(narrative),
    website: narrative.website,
  }
}

/** Null when the narrative or its question is not the viewer's to answer; refused over the question's own limit. */
export async function saveAnswer({ id, viewer, index, text }: { id: string; viewer: Viewer; index: number; text: string }) {
  await enforceEditRateLimit(viewer.id)
  const narrative = await prisma.narrative.findFirst({ where: { id, ...ownedBy(viewer), status: { not: 'generating' } } })
  const question = narrative && parseBrief(narrative.brief)?.questions[index]
  if (!narrative || !question) return null
  const limit = questionLimit(question)
  if (!fits(text, limit)) throw new RefusedError(overLimitMessage(text, limit), 400, undefined, 'text')
  const answerId = await insertWrittenAnswer({ narrative, question: question.text, limit, text, engine: MANUAL_ENGINE })
  log('info', 'narrative.answer_saved', { userId: viewer.id, narrativeId: id, question: index, answerId })
  return answerId
}

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
