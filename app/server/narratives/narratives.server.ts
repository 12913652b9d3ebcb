import { Prisma, type Narrative } from '@prisma/client'
import { prisma } from '~/server/platform/db.server'
import { getEnv } from '~/server/platform/env.server'
import { log } from '~/server/platform/logger.server'
import { createRowId } from '~/server/platform/row-id.server'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { isTone } from '~/shared/tones'
import { recordVersion } from '~/server/narratives/versions.server'
import { claimsColumn, readClaims, type ClaimInputs } from '~/server/narratives/claims.server'
import { ownedBy, ownedBySql, type Viewer } from '~/server/narratives/access.server'
import { refundQuota } from '~/server/generation/quota/quota.server'
import { SavedLimitError, type ClaimedGeneration } from '~/server/generation/quota/contract.server'
import { countWords } from '~/shared/text'
import { enforceEditRateLimit } from '~/server/edge/rate-limit.server'
export const PAGE_SIZE = 10
export const API_PAGE_LIMIT_MAX = 100

/** The stored columns for a narrative's inputs; optional fields are stored as ''. */
export function toNarrativeColumns(input: NarrativeInput) {
  return {
    company: input.company,
    website: input.website ?? '',
    contactName1: input.contactName1,
    contactTitle1: input.contactTitle1 ?? '',
    contactEmail1: input.contactEmail1,
    contactPhone1: input.contactPhone1 ?? '',
    contactName2: input.contactName2 ?? '',
    contactTitle2: input.contactTitle2 ?? '',
    contactEmail2: input.contactEmail2 ?? '',
    contactPhone2: input.contactPhone2 ?? '',
    missionStatement: input.missionStatement,
    keyPrograms: input.keyPrograms,
    impactMetrics: input.impactMetrics,
    targetAudience: input.targetAudience ?? '',
    geographicFocus: input.geographicFocus ?? '',
    successStory: input.successStory ?? '',
    tone: input.selectedTone,
  }
}

/**
 * Inserts the record a generation starts with. Generations start in bursts, so this is one
 * parameterized INSERT rather than Prisma's compiled create (docs/decisions/006).
 */
export async function insertGeneratingNarrative(
  tx: Prisma.TransactionClient,
  row: ReturnType<typeof toNarrativeColumns> & { userId: string; engine: string; quotaDay: string },
) {
  const now = new Date()
  const columns: Record<string, string | Date> = { id: createRowId(), ...row, status: 'generating', createdAt: now, updatedAt: now }
  const names = Prisma.join(Object.keys(columns).map((name) => Prisma.raw(`"${name}"`)))
  await tx.$executeRaw`INSERT INTO "Narrative" (${names}) VALUES (${Prisma.join(Object.values(columns))})`
  return columns.id as string
}

/**
 * The end of a generation: its outcome, text and claims (traced to `inputs`, what it was written
 * from), and the text as its first version unless it failed. Raw for the same reason as the insert:
 * many end together.
 */
export async function finishNarrative(
  { id, status, text, inputs }: { id: string; status: 'complete' | 'stopped' | 'failed'; text: string; inputs: ClaimInputs },
  claim: ClaimedGeneration,
) {
  const claims = claimsColumn(text, inputs)
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`
      UPDATE "Narrative" SET "status" = ${status}, "generatedNarrative" = ${text}, "claims" = ${claims}, "updatedAt" = ${new Date()}
      WHERE "id" = ${id}`
    if (status === 'failed') await refundQuota(tx, claim)
    else if (text) await recordVersion(tx, id, text, 'generated')
  })
}

/** A finished generation's outcome, for a stream that reconnects after its job is gone. */
export function getNarrativeOutcome(id: string) {
  return prisma.narrative.findUnique({ where: { id }, select: { status: true, generatedNarrative: true } })
}

/** Rows still marked generating whose job is not among `runningIds`: what a crash left behind. */
export function findInterruptedNarratives(runningIds: string[]) {
  return prisma.narrative.findMany({
    where: { status: 'generating', id: { notIn: runningIds } },
    select: { id: true, userId: true, quotaDay: true },
  })
}

/**
 * A generation that ended with no outcome saved (a crash, or a failed save): failed and refunded in
 * one transaction, once, so neither a second call nor a crash between the two gives or loses a unit.
 */
export async function markNarrativeFailed(id: string, claim: ClaimedGeneration) {
  await prisma.$transaction(async (tx) => {
    const changed = await tx.$executeRaw`UPDATE "Narrative" SET "status" = 'failed' WHERE "id" = ${id} AND "status" = 'generating'`
    if (changed === 1) await refundQuota(tx, claim)
  })
}

/** A saved narrative's inputs, every field: the dashboard form's values (edit to regenerate), and what a variant is written from. */
export function toFormValues(narrative: Narrative): Required<NarrativeInput> {
  return {
    company: narrative.company,
    website: narrative.website,
    contactName1: narrative.contactName1,
    contactTitle1: narrative.contactTitle1,
    contactEmail1: narrative.contactEmail1,
    contactPhone1: narrative.contactPhone1,
    contactName2: narrative.contactName2,
    contactTitle2: narrative.contactTitle2,
    contactEmail2: narrative.contactEmail2,
    contactPhone2: narrative.contactPhone2,
    missionStatement: narrative.missionStatement,
    keyPrograms: narrative.keyPrograms,
    impactMetrics: narrative.impactMetrics,
    targetAudience: narrative.targetAudience,
    geographicFocus: narrative.geographicFocus,
    successStory: narrative.successStory,
    selectedTone: isTone(narrative.tone) ? narrative.tone : 'professional',
  }
}

/**
 * The organisation the user last described: the inputs of their last generation (a record sent through
 * the API was written elsewhere, so it is not one). Served by the (userId, createdAt, id) index.
 */
export function getLastGenerationInputs(userId: string) {
  return prisma.narrative.findFirst({
    where: { userId, engine: { not: 'manual' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  })
}

export const WITH_OWNER = { user: { select: { firstName: true, lastName: true, email: true } } } as const
export type NarrativeWithOwner = Prisma.NarrativeGetPayload<{ include: typeof WITH_OWNER }>

/** A narrative the viewer may see, or null (a foreign id reads exactly like a missing one). */
export function getNarrative({ id, viewer }: { id: string; viewer: Viewer }) {
  return prisma.narrative.findFirst({ where: { id, ...ownedBy(viewer) }, include: WITH_OWNER })
}

/** Just what following a generation needs: no owner details, no text (the stream carries it). */
export function getNarrativeEngine({ id, viewer }: { id: string; viewer: Viewer }) {
  return prisma.narrative.findFirst({ where: { id, ...ownedBy(viewer) }, select: { id: true, engine: true, userId: true } })
}

/** One page of the viewer's narratives (everyone's for an admin), newest first. */
export async function listNarratives({ viewer, page, limit = PAGE_SIZE }: { viewer: Viewer; page: number; limit?: number }) {
  const [total, data] = await Promise.all([countNarratives(viewer), findNarrativePage(viewer, limit, (page - 1) * limit)])
  return { data, pagination: { page, limit, total, pages: Math.max(1, Math.ceil(total / limit)) } }
}

/**
 * The list is the most read page: one parameterized join served by the (userId, createdAt, id) and
 * (createdAt, id) indexes. Prisma's compiled findMany with its owner cost 1.5 ms against 0.35 ms
 * (docs/decisions/006).
 */
async function findNarrativePage(viewer: Viewer, limit: number, offset: number): Promise<NarrativeWithOwner[]> {
  const rows = await prisma.$queryRaw<NarrativeListRow[]>`
    SELECT ${NARRATIVE_COLUMNS_SQL}, u."firstName" AS "ownerFirstName", u."lastName" AS "ownerLastName", u."email" AS "ownerEmail"
    FROM "Narrative" n JOIN "User" u ON u."id" = n."userId"
    ${ownedBySql(viewer)}
    ORDER BY n."createdAt" DESC, n."id" DESC
    LIMIT ${limit} OFFSET ${offset}`
  return rows.map(toNarrativeWithOwner)
}

// A raw row is typed by what SQLite returns, not by the schema (a Boolean would come back as 0 or 1):
// the columns are named from the schema, and each row is mapped to the type it claims to be.
const NARRATIVE_COLUMNS = Object.keys(Prisma.NarrativeScalarFieldEnum) as (keyof Narrative)[]
const NARRATIVE_COLUMNS_SQL = Prisma.raw(NARRATIVE_COLUMNS.map((name) => `n."${name}"`).join(', '))

type RawDate = Date | number | string
type NarrativeListRow = Omit<Narrative, 'createdAt' | 'updatedAt'> & {
  createdAt: RawDate
  updatedAt: RawDate
  ownerFirstName: string
  ownerLastName: string
  ownerEmail: string
}

function toNarrativeWithOwner({
  ownerFirstName,
  ownerLastName,
  ownerEmail,
  createdAt,
  updatedAt,
  ...columns
}: NarrativeListRow): NarrativeWithOwner {
  return {
    ...columns,
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
    user: { firstName: ownerFirstName, lastName: ownerLastName, email: ownerEmail },
  }
}

/**
 * Prisma's count wraps the query in a subquery SQLite does not answer from the index: 4.7 ms for
 * 100,000 rows against 0.02 ms for this (docs/decisions/006).
 */
async function countNarratives(viewer: Viewer): Promise<number> {
  const rows = await prisma.$queryRaw<{ total: number | bigint }[]>`SELECT COUNT(*) AS "total" FROM "Narrative" n ${ownedBySql(viewer)}`
  return Number(rows[0].total)
}

/**
 * Only the text (and its claims) changes; nothing else can be set through an edit. A changed text is
 * a new version. Throws RateLimitError past EDITS_PER_MINUTE.
 */
export async function updateNarrativeText({ id, viewer, text }: { id: string; viewer: Viewer; text: string }) {
  await enforceEditRateLimit(viewer.id)
  const updated = await prisma.$transaction(async (tx) => {
    const current = await tx.narrative.findFirst({ where: { id, ...ownedBy(viewer), status: { not: 'generating' } } })
    if (!current) return false
    // Saving the text unchanged is no edit: the history keeps only texts the narrative really had.
    if (current.generatedNarrative === text) return true
    await tx.narrative.update({ where: { id }, data: { generatedNarrative: text, claims: claimsColumn(text, current) } })
    await recordVersion(tx, id, text, 'edited')
    return true
  })
  if (updated) log('info', 'narrative.updated', { userId: viewer.id, narrativeId: id })
  return updated
}

export async function deleteNarrative({ id, viewer }: { id: string; viewer: Viewer }) {
  const { count } = await prisma.narrative.deleteMany({ where: { id, ...ownedBy(viewer), status: { not: 'generating' } } })
  if (count) log('info', 'narrative.deleted', { userId: viewer.id, narrativeId: id })
  return count === 1
}

/** The narrative text's claims, traced to its inputs (docs/decisions/017), as kept beside the text. */
export function claimsOfNarrative(narrative: Narrative) {
  return readClaims(narrative.claims, narrative.generatedNarrative, narrative)
}

/** The record as read (docs/api.md#the-record-as-read): the one mapping from a stored record to the API's shape. */
export function toApiNarrative(narrative: NarrativeWithOwner, { withClaims = true } = {}) {
  return {
    id: narrative.id,
    company: narrative.company,
    website: narrative.website,
    generatedNarrative: narrative.generatedNarrative,
    tone: narrative.tone,
    selectedTone: narrative.tone,
    status: narrative.status,
    engine: narrative.engine,
    createdAt: narrative.createdAt.toISOString(),
    updatedAt: narrative.updatedAt.toISOString(),
    user: { first_name: narrative.user.firstName, last_name: narrative.user.lastName, email: narrative.user.email },
    missionStatement: narrative.missionStatement,
    keyActivities: narrative.keyPrograms,
    keyAchievements: narrative.impactMetrics,
    targetPopulation: narrative.targetAudience,
    geographicFocus: narrative.geographicFocus,
    successStory: narrative.successStory,
    c_name1: narrative.contactName1,
    c_title1: narrative.contactTitle1,
    c_email1: narrative.contactEmail1,
    c_phone1: narrative.contactPhone1,
    c_name2: narrative.contactName2,
    c_title2: narrative.contactTitle2,
    c_email2: narrative.contactEmail2,
    c_phone2: narrative.contactPhone2,
    ...(withClaims ? { claims: claimsOfNarrative(narrative) } : {}),
    wordCount: countWords(narrative.generatedNarrative),
  }
}

/** A narrative written elsewhere, kept as given; refused past MAX_SAVED_NARRATIVES (counted with the insert, atomically). */
export async function createNarrative({ viewer, input, text }: { viewer: Viewer; input: NarrativeInput; text: string }) {
  const narrative = await prisma.$transaction(async (tx) => {
    if ((await tx.narrative.count({ where: { userId: viewer.id } })) >= getEnv().MAX_SAVED_NARRATIVES) throw new SavedLimitError()
    const created = await tx.narrative.create({
      data: {
        ...toNarrativeColumns(input),
        userId: viewer.id,
        generatedNarrative: text,
        claims: claimsColumn(text, input),
        status: 'complete',
        engine: 'manual',
      },
      include: WITH_OWNER,
    })
    // Text a person wrote elsewhere: its first version is theirs, not an engine's.
    if (text) await recordVersion(tx, created.id, text, 'edited')
    return created
  })
  log('info', 'narrative.created', { userId: viewer.id, narrativeId: narrative.id })
  return narrative
}
