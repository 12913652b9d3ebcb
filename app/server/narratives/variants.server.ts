import { createHash } from 'node:crypto'
import { type Narrative, type Prisma, prisma } from '~/server/platform/db.server'
import { REPLICA_ID } from '~/server/cluster/contract.server'
import { WITH_OWNER } from '~/server/narratives/narratives.server'
import { ownedBy, type Viewer } from '~/server/narratives/access.server'
import { claimsColumnOrLater, readClaims, type ClaimInputs } from '~/server/narratives/claims.server'
import { VERSION_SUMMARIES_NEWEST_FIRST } from '~/server/narratives/versions.server'
import { createRowId } from '~/server/platform/row-id.server'
import { refundQuota } from '~/server/usage/quota.server'
import type { ClaimedGeneration } from '~/server/usage/contract.server'
import { measure, toApiLimit, type Limit, type VariantFormat } from '~/shared/variant-limits'
import { countWords } from '~/shared/text'

// A narrative's variants (docs/decisions/018 and 020): stored like generations, since they are written like them.

/** Only the owner's, even for an administrator, whose quota is not theirs. */
export function findVariantSource(userId: string, narrativeId: string) {
  return prisma.narrative.findFirst({
    where: { id: narrativeId, userId, status: { in: ['complete', 'stopped'] }, generatedNarrative: { not: '' } },
  })
}

/** Inserts the variant a job starts with. Raw, like a generation's insert (decision 006). */
export async function insertGeneratingVariant(
  tx: Prisma.TransactionClient,
  row: {
    narrativeId: string
    userId: string
    format: VariantFormat | 'question'
    limit: Limit
    engine: string
    /** Null for a variant that cost nothing (the offline drafter's). */
    quotaDay: string | null
    question: string | null
    source: string
  },
) {
  const id = createRowId()
  const now = new Date()
  await tx.$executeRaw`
    INSERT INTO "NarrativeVariant" ("id", "narrativeId", "userId", "format", "limitUnit", "limitMax", "status", "engine", "quotaDay", "createdAt", "updatedAt", "question", "runner", "writtenFrom")
    VALUES (${id}, ${row.narrativeId}, ${row.userId}, ${row.format}, ${storedUnit(row.limit)}, ${row.limit.max}, 'generating', ${row.engine}, ${row.quotaDay}, ${now}, ${now}, ${row.question}, ${REPLICA_ID}, ${fingerprint(row.source)})`
  return id
}

/** How many answers a question keeps, the newest first: each save of a person's answer adds one. */
export const ANSWERS_KEPT = 10

/** A person's answer, a variant of its own that costs nothing, so the model's it replaces stays (docs/decisions/054). */
export async function insertWrittenAnswer(row: {
  narrative: Pick<Narrative, 'id' | 'userId' | 'generatedNarrative'> & ClaimInputs
  question: string
  limit: Limit
  text: string
  engine: string
}) {
  const claims = await claimsColumnOrLater(row.text, row.narrative)
  const { id: narrativeId, userId } = row.narrative
  return prisma.$transaction(async (tx) => {
    const id = createRowId()
    const now = new Date()
    await tx.$executeRaw`
      INSERT INTO "NarrativeVariant" ("id", "narrativeId", "userId", "format", "limitUnit", "limitMax", "status", "text", "claims", "engine", "createdAt", "updatedAt", "question", "writtenFrom")
      VALUES (${id}, ${narrativeId}, ${userId}, 'question', ${storedUnit(row.limit)}, ${row.limit.max}, 'complete', ${row.text}, ${claims}, ${row.engine}, ${now}, ${now}, ${row.question}, ${fingerprint(row.narrative.generatedNarrative)})`
    await pruneAnswers(tx, narrativeId, row.question)
    return id
  })
}

/** Lets go of a question's answers beyond the newest ANSWERS_KEPT. Two saves at once may each keep one more, until the next. */
async function pruneAnswers(tx: Prisma.TransactionClient, narrativeId: string, question: string) {
  const older = await tx.narrativeVariant.findMany({
    where: { narrativeId, format: 'question', question, status: 'complete' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip: ANSWERS_KEPT,
    select: { id: true },
  })
  if (older.length) await tx.narrativeVariant.deleteMany({ where: { id: { in: older.map((answer) => answer.id) } } })
}

/** A failed one is refunded with it. */
export async function finishVariant(
  { id, status, text, inputs }: { id: string; status: 'complete' | 'failed'; text: string; inputs: ClaimInputs },
  claim: ClaimedGeneration,
) {
  const claims = await claimsColumnOrLater(text, inputs)
  await prisma.$transaction(async (tx) => {
    const changed = await tx.$executeRaw`
      UPDATE "NarrativeVariant" SET "status" = ${status}, "text" = ${text}, "claims" = ${claims}, "updatedAt" = ${new Date()}
      WHERE "id" = ${id} AND "status" = 'generating'`
    // As finishNarrative: failed and refunded elsewhere already.
    if (changed === 1 && status === 'failed') await refundQuota(tx, claim, 'variants')
    const answer =
      changed === 1 && status === 'complete'
        ? await tx.narrativeVariant.findUnique({ where: { id }, select: { narrativeId: true, question: true } })
        : null
    if (answer?.question) await pruneAnswers(tx, answer.narrativeId, answer.question)
  })
}

/** As markNarrativeFailed: a variant with no outcome saved is failed and refunded in one transaction, once. */
export async function markVariantFailed(id: string, claim: ClaimedGeneration) {
  await prisma.$transaction(async (tx) => {
    const changed = await tx.$executeRaw`
      UPDATE "NarrativeVariant" SET "status" = 'failed', "text" = '', "updatedAt" = ${new Date()} WHERE "id" = ${id} AND "status" = 'generating'`
    if (changed === 1) await refundQuota(tx, claim, 'variants')
  })
}

/** For a stream that reconnects after its job is gone, or follows it on another replica. */
export function getVariantOutcome(id: string) {
  return prisma.narrativeVariant.findUnique({ where: { id }, select: { status: true, text: true, runner: true, userId: true } })
}

export function findInterruptedVariants(runningIds: string[], liveReplicas: string[]) {
  return prisma.narrativeVariant.findMany({
    where: { status: 'generating', id: { notIn: runningIds }, OR: [{ runner: null }, { runner: { notIn: liveReplicas } }] },
    select: { id: true, userId: true, quotaDay: true },
  })
}

const VARIANT_FIELDS = {
  id: true,
  narrativeId: true,
  userId: true,
  format: true,
  limitUnit: true,
  limitMax: true,
  text: true,
  claims: true,
  status: true,
  engine: true,
  createdAt: true,
  question: true,
  writtenFrom: true,
} as const
export type VariantRecord = Prisma.NarrativeVariantGetPayload<{ select: typeof VARIANT_FIELDS }>

export const WRITTEN_VARIANTS = {
  where: { status: 'complete' },
  orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  select: VARIANT_FIELDS,
} satisfies Prisma.Narrative$variantsArgs

/** Null when the viewer may not see it. */
export function getNarrativeWithVariants({ id, viewer }: { id: string; viewer: Viewer }) {
  return prisma.narrative.findFirst({ where: { id, ...ownedBy(viewer) }, include: { variants: WRITTEN_VARIANTS } })
}

export function getNarrativeWorkbench({ id, viewer }: { id: string; viewer: Viewer }) {
  return prisma.narrative.findFirst({
    where: { id, ...ownedBy(viewer) },
    include: { ...WITH_OWNER, versions: VERSION_SUMMARIES_NEWEST_FIRST, variants: WRITTEN_VARIANTS },
  })
}

const WITH_NARRATIVE = { ...VARIANT_FIELDS, narrative: { select: { company: true, tone: true, funderName: true } } } as const
export type VariantWithNarrative = Prisma.NarrativeVariantGetPayload<{ select: typeof WITH_NARRATIVE }>

export function getVariant({ id, viewer }: { id: string; viewer: Viewer }): Promise<VariantWithNarrative | null> {
  return prisma.narrativeVariant.findFirst({ where: { id, narrative: ownedBy(viewer) }, select: WITH_NARRATIVE })
}

/** Which text a variant was written from: a hash, so restoring that text makes the variant current again. */
function fingerprint(text: string) {
  return createHash('sha256').update(text).digest('hex')
}

/** False once the text is edited after the variant was written; one with no kept source is taken as current. */
export function currentVariantTest(narrativeText: string) {
  const now = fingerprint(narrativeText)
  return (variant: Pick<VariantRecord, 'writtenFrom'>) => variant.writtenFrom === null || variant.writtenFrom === now
}

/** Traced to the inputs of `narrative`, the variant's source. */
export function claimsOfVariant(variant: Pick<VariantRecord, 'claims' | 'text'>, narrative: ClaimInputs) {
  return readClaims(variant.claims, variant.text, narrative)
}

/** The column names the rule whole: "words", "characters", or "characters without spaces". */
const storedUnit = ({ unit, withoutSpaces }: Limit) =>
  unit === 'words' ? 'words' : withoutSpaces ? 'characters without spaces' : 'characters'

export function limitOfVariant(variant: Pick<VariantRecord, 'limitUnit' | 'limitMax'>): Limit {
  if (variant.limitUnit === 'characters without spaces') return { unit: 'characters', max: variant.limitMax, withoutSpaces: true }
  return { unit: variant.limitUnit === 'characters' ? 'characters' : 'words', max: variant.limitMax }
}

export function toApiVariants(variants: VariantRecord[], narrative: Narrative) {
  const isCurrent = currentVariantTest(narrative.generatedNarrative)
  return variants.map((variant) => toApiVariant(variant, narrative, isCurrent(variant)))
}

function toApiVariant(variant: VariantRecord, narrative: Narrative, current: boolean) {
  return {
    id: variant.id,
    format: variant.format,
    ...(variant.question !== null ? { question: variant.question } : {}),
    limit: toApiLimit(limitOfVariant(variant)),
    text: variant.text,
    wordCount: countWords(variant.text),
    characterCount: measure(variant.text, { unit: 'characters' }),
    claims: claimsOfVariant(variant, narrative),
    current,
    createdAt: variant.createdAt.toISOString(),
  }
}
