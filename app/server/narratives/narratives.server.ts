import { setImmediate } from 'node:timers/promises'
import { DUE_SOON_DAYS, type NarrativeFilters } from '~/shared/list-query'
import { MANUAL_ENGINE } from '~/shared/engines'
import { LIKE, lockInvariant, type Narrative, prisma, Prisma } from '~/server/platform/db.server'
import { REPLICA_ID } from '~/server/cluster/contract.server'
import { getEnv } from '~/server/platform/env.server'
import { log } from '~/server/platform/logger.server'
import { createRowId } from '~/server/platform/row-id.server'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { DEFAULT_TONE, isTone } from '~/shared/tones'
import { recordVersion } from '~/server/narratives/versions.server'
import { readClaims, type ClaimInputs } from '~/server/narratives/claims.server'
import { coverageOf, readAlignment, textColumnsInPool, textColumnsOrLater } from '~/server/narratives/alignment.server'
import { ownedBy, type Viewer } from '~/server/narratives/access.server'
import { refundQuota, utcDay } from '~/server/usage/quota.server'
import { SavedLimitError, type ClaimedGeneration } from '~/server/usage/contract.server'
import { countWords } from '~/shared/text'
import { enforceEditRateLimit } from '~/server/edge/limits.server'

/** The funder a narrative is written for, as its row keeps it: the brief as it was then, in JSON (BriefAsWritten). */
export type ForFunder = {
  funderId: string
  funderName: string
  amountRequested: string | null
  deadline: string | null
  brief: string
}

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

/** One parameterized INSERT rather than Prisma's compiled create: generations start in bursts (docs/decisions/006). */
export async function insertGeneratingNarrative(
  tx: Prisma.TransactionClient,
  row: ReturnType<typeof toNarrativeColumns> & Partial<ForFunder> & { userId: string; engine: string; quotaDay: string | null },
) {
  const now = new Date()
  const columns: Record<string, string | Date | null> = {
    id: createRowId(),
    ...row,
    status: 'generating',
    runner: REPLICA_ID,
    createdAt: now,
    updatedAt: now,
  }
  const names = Prisma.join(Object.keys(columns).map((name) => Prisma.raw(`"${name}"`)))
  await tx.$executeRaw`INSERT INTO "Narrative" (${names}) VALUES (${Prisma.join(Object.values(columns))})`
  return columns.id as string
}

/** The text becomes the first version unless the generation failed. Raw, as the insert: many end together. */
export async function finishNarrative(
  {
    id,
    status,
    text,
    inputs,
    brief,
  }: { id: string; status: 'complete' | 'stopped' | 'failed'; text: string; inputs: ClaimInputs; brief: string | null },
  claim: ClaimedGeneration,
) {
  // In the work pool, warm before the first task asks (decision 041).
  const { claims, alignment } = await textColumnsOrLater(text, inputs, brief)
  await prisma.$transaction(async (tx) => {
    const changed = await tx.$executeRaw`
      UPDATE "Narrative" SET "status" = ${status}, "generatedNarrative" = ${text}, "brief" = ${brief}, "claims" = ${claims}, "alignment" = ${alignment}, "updatedAt" = ${new Date()}
      WHERE "id" = ${id} AND "status" = 'generating'`
    // Another replica failed and refunded it while this one stalled past its heartbeat (decision 036).
    if (changed !== 1) return
    if (status === 'failed') await refundQuota(tx, claim)
    else if (text) await recordVersion(tx, id, text, 'generated')
  })
}

/** A generation's outcome, for a stream that reconnects after its job is gone; its runner while it runs. */
export function getNarrativeOutcome(id: string) {
  return prisma.narrative.findUnique({ where: { id }, select: { status: true, generatedNarrative: true, runner: true, userId: true } })
}

/** Rows still generating that no running job and no live replica holds: what a crash left (decision 036). */
export function findInterruptedNarratives(runningIds: string[], liveReplicas: string[]) {
  return prisma.narrative.findMany({
    where: { status: 'generating', id: { notIn: runningIds }, OR: [{ runner: null }, { runner: { notIn: liveReplicas } }] },
    select: { id: true, userId: true, quotaDay: true },
  })
}

/** Failed and refunded in one transaction, once: neither a second call nor a crash gives or loses a unit. */
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
    selectedTone: isTone(narrative.tone) ? narrative.tone : DEFAULT_TONE,
  }
}

/**
 * The inputs of the user's last generation (a record sent through the API was written elsewhere). Raw,
 * as the dashboard reads it on every visit (decision 006).
 */
export async function getLastGenerationInputs(userId: string): Promise<Narrative | null> {
  const [last] = await findNarrativePage(
    [Prisma.sql`n."userId" = ${userId}`, Prisma.sql`n."engine" <> ${MANUAL_ENGINE}`],
    NEWEST_FIRST,
    1,
    0,
  )
  return last ?? null
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

/** docs/api.md#calls: days are UTC, both ends included; `deadline` puts upcoming deadlines first, soonest first. */
/** One page of the viewer's narratives (everyone's for an admin), newest first unless `filters.sort` says otherwise. */
export async function listNarratives({
  viewer,
  page,
  limit = PAGE_SIZE,
  filters = {},
}: {
  viewer: Viewer
  page: number
  limit?: number
  filters?: NarrativeFilters
}) {
  const offset = (page - 1) * limit
  const list: { data: NarrativeWithOwner[]; total: number; searched?: number } = filters.q
    ? await searchNarratives(viewer, filters, filters.q, limit, offset)
    : filters.sort === 'deadline'
      ? await listByDeadline(viewer, filters, limit, offset)
      : await listNewest(filterSql(viewer, filters), limit, offset)
  const { data, total, searched } = list
  // `searched`: a search that stopped early says how many of the newest narratives it read.
  const pagination = { page, limit, total, pages: Math.max(1, Math.ceil(total / limit)), ...(searched ? { searched } : {}) }
  return { data, pagination }
}

async function listNewest(where: Prisma.Sql[], limit: number, offset: number) {
  const [total, data] = await Promise.all([countNarratives(where), findNarrativePage(where, NEWEST_FIRST, limit, offset)])
  return { total, data }
}

const NEWEST_FIRST = Prisma.sql`n."createdAt" DESC, n."id" DESC`

/** Upcoming deadlines, soonest first (the deadline indexes serve them), then every other narrative newest first. */
async function listByDeadline(viewer: Viewer, filters: NarrativeFilters, limit: number, offset: number) {
  const today = new Date().toISOString().slice(0, 10)
  const upcoming = [...filterSql(viewer, filters), Prisma.sql`n."deadline" >= ${today}`]
  const rest = [...filterSql(viewer, filters), Prisma.sql`(n."deadline" IS NULL OR n."deadline" < ${today})`]
  const [soon, others] = await Promise.all([countNarratives(upcoming), countNarratives(rest)])
  const first = offset < soon ? await findNarrativePage(upcoming, Prisma.sql`n."deadline" ASC, ${NEWEST_FIRST}`, limit, offset) : []
  const second = first.length < limit ? await findNarrativePage(rest, NEWEST_FIRST, limit - first.length, Math.max(0, offset - soon)) : []
  return { total: soon + others, data: [...first, ...second] }
}

/**
 * The narratives whose company, funder or text holds `q`, read newest first a window at a time with a turn
 * of the event loop between: LIKE's cost is the text's length times the pattern's, and the text has no
 * index both databases share. Windows grow while a query takes under SEARCH_WINDOW_MS and shrink past it; a
 * search past SEARCH_TIME_MAX_MS answers with what it found, marked incomplete (decision 025). LIKE reads
 * the window's rows alone, or PostgreSQL would match every row to return a few.
 */
const SEARCH_WINDOW_FIRST = 1
const SEARCH_WINDOW_MAX = 200
const SEARCH_WINDOW_MS = 10
export const SEARCH_TIME_MAX_MS = 1000
export const SEARCH_ROWS_MAX = 10_000

async function searchNarratives(viewer: Viewer, filters: NarrativeFilters, q: string, limit: number, offset: number) {
  // SQLite's LIKE ignores the case of A-Z only: there any other letter is found as typed.
  const pattern = `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
  const matches: { id: string; deadline: string | null }[] = []
  let cursor: { createdAt: RawDate; id: string } | null = null
  let window = SEARCH_WINDOW_FIRST
  let spentMs = 0
  let read = 0
  let complete = false
  while (read < SEARCH_ROWS_MAX && spentMs < SEARCH_TIME_MAX_MS) {
    const where = [...filterSql(viewer, filters)]
    if (cursor)
      where.push(Prisma.sql`(n."createdAt" < ${cursor.createdAt} OR (n."createdAt" = ${cursor.createdAt} AND n."id" < ${cursor.id}))`)
    const started = performance.now()
    const rows = await prisma.$queryRaw<{ id: string; createdAt: RawDate; deadline: string | null; hit: number | bigint | boolean }[]>`
      SELECT n."id", n."createdAt", n."deadline",
        (n."company" ${LIKE} ${pattern} ESCAPE '\\' OR COALESCE(n."funderName", '') ${LIKE} ${pattern} ESCAPE '\\'
          OR n."generatedNarrative" ${LIKE} ${pattern} ESCAPE '\\') AS "hit"
      FROM (SELECT * FROM "Narrative" n ${whereClause(where)} ORDER BY ${NEWEST_FIRST} LIMIT ${window}) n
      ORDER BY ${NEWEST_FIRST}`
    const tookMs = performance.now() - started
    spentMs += tookMs
    read += rows.length
    for (const row of rows) if (Number(row.hit)) matches.push({ id: row.id, deadline: row.deadline })
    if (rows.length < window) {
      complete = true
      break
    }
    cursor = rows[rows.length - 1]
    window = tookMs > SEARCH_WINDOW_MS ? Math.max(1, window >> 1) : Math.min(SEARCH_WINDOW_MAX, window * 2)
    await setImmediate()
  }
  if (filters.sort === 'deadline') upcomingFirst(matches)
  const ids = matches.slice(offset, offset + limit).map((match) => match.id)
  const rows = ids.length ? await findNarrativePage([Prisma.sql`n."id" IN (${Prisma.join(ids)})`], NEWEST_FIRST, ids.length, 0) : []
  const byId = new Map(rows.map((row) => [row.id, row]))
  return { total: matches.length, data: ids.map((id) => byId.get(id)!).filter(Boolean), searched: complete ? undefined : read }
}

function upcomingFirst(matches: { deadline: string | null }[]) {
  const today = new Date().toISOString().slice(0, 10)
  const upcoming = matches.filter((match) => match.deadline && match.deadline >= today)
  upcoming.sort((a, b) => (a.deadline! < b.deadline! ? -1 : a.deadline! > b.deadline! ? 1 : 0))
  const soon = new Set(upcoming)
  matches.splice(0, matches.length, ...upcoming, ...matches.filter((match) => !soon.has(match)))
}

/** The conditions of a list: the owner (none for an admin) and the filters but `q`. */
function filterSql(viewer: Viewer, { funderId, stage, due, tone, from, to }: NarrativeFilters): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = []
  if (!viewer.isAdmin) conditions.push(Prisma.sql`n."userId" = ${viewer.id}`)
  if (funderId) conditions.push(Prisma.sql`n."funderId" = ${funderId}`)
  if (stage) conditions.push(Prisma.sql`n."stage" = ${stage}`)
  if (due) conditions.push(dueSql(due))
  if (tone) conditions.push(Prisma.sql`n."tone" = ${tone}`)
  if (from) conditions.push(Prisma.sql`n."createdAt" >= ${new Date(`${from}T00:00:00.000Z`)}`)
  if (to) conditions.push(Prisma.sql`n."createdAt" < ${new Date(new Date(`${to}T00:00:00.000Z`).getTime() + 86_400_000)}`)
  return conditions
}

/** Deadlines are UTC days (YYYY-MM-DD), compared as text like the order by deadline. */
function dueSql(due: NonNullable<NarrativeFilters['due']>) {
  const today = utcDay()
  const soon = utcDay(new Date(Date.now() + DUE_SOON_DAYS * 86_400_000))
  switch (due) {
    case 'soon':
      return Prisma.sql`(n."deadline" >= ${today} AND n."deadline" <= ${soon})`
    case 'upcoming':
      return Prisma.sql`n."deadline" >= ${today}`
    case 'passed':
      return Prisma.sql`n."deadline" < ${today}`
    case 'none':
      return Prisma.sql`n."deadline" IS NULL`
  }
}

function whereClause(conditions: Prisma.Sql[]) {
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
}

/** The most read page: one raw join, served by the (userId, createdAt, id) and (createdAt, id) indexes (decision 006). */
async function findNarrativePage(where: Prisma.Sql[], order: Prisma.Sql, limit: number, offset: number): Promise<NarrativeWithOwner[]> {
  const rows = await prisma.$queryRaw<NarrativeListRow[]>`
    SELECT ${NARRATIVE_COLUMNS_SQL}, u."firstName" AS "ownerFirstName", u."lastName" AS "ownerLastName", u."email" AS "ownerEmail"
    FROM "Narrative" n JOIN "User" u ON u."id" = n."userId"
    ${whereClause(where)}
    ORDER BY ${order}
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

/** Prisma's count wraps the query in a subquery SQLite does not answer from the index (decision 006). */
async function countNarratives(where: Prisma.Sql[]): Promise<number> {
  const rows = await prisma.$queryRaw<{ total: number | bigint }[]>`SELECT COUNT(*) AS "total" FROM "Narrative" n ${whereClause(where)}`
  return Number(rows[0].total)
}

/** Only the text (and its claims) changes, as a new version. Throws RateLimitError past EDITS_PER_MINUTE. */
export async function updateNarrativeText({
  id,
  viewer,
  text,
  signal,
}: {
  id: string
  viewer: Viewer
  text: string
  signal?: AbortSignal
}) {
  await enforceEditRateLimit(viewer.id)
  const editable = { id, ...ownedBy(viewer), status: { not: 'generating' } }
  // The inputs and brief never change after the narrative is made: the columns are found first, outside the transaction.
  const before = await prisma.narrative.findFirst({ where: editable })
  if (!before) return false
  if (before.generatedNarrative === text) return true
  const columns = await textColumnsInPool(text, before, before.brief, signal)
  const updated = await prisma.$transaction(async (tx) => {
    const current = await tx.narrative.findFirst({ where: editable, select: { generatedNarrative: true } })
    if (!current) return false
    // Saving the text unchanged is no edit: the history keeps only texts the narrative really had.
    if (current.generatedNarrative === text) return true
    await tx.narrative.update({ where: { id }, data: { generatedNarrative: text, ...columns } })
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

/** The text's alignment with the brief it was written for (docs/decisions/030), as kept beside the text; [] without a brief. */
export function alignmentOfNarrative(narrative: Narrative) {
  return readAlignment(narrative.alignment, narrative.claims, narrative.generatedNarrative, narrative, narrative.brief)
}

/** The record as read (docs/api.md#the-record-as-read): the one mapping from a stored record to the API's shape. */
export function toApiNarrative(narrative: NarrativeWithOwner, { withClaims = true, withAlignment = true } = {}) {
  const alignment = withAlignment ? alignmentOfNarrative(narrative) : null
  return {
    id: narrative.id,
    company: narrative.company,
    website: narrative.website,
    generatedNarrative: narrative.generatedNarrative,
    tone: narrative.tone,
    selectedTone: narrative.tone,
    status: narrative.status,
    stage: narrative.stage,
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
    funder: narrative.funderName ? { id: narrative.funderId, name: narrative.funderName } : null,
    amountRequested: narrative.amountRequested,
    deadline: narrative.deadline,
    ...(alignment ? { alignment, coverage: coverageOf(alignment) } : {}),
  }
}

/** A narrative written elsewhere, kept as given; refused past MAX_SAVED_NARRATIVES, counted with the insert. */
export async function createNarrative({
  viewer,
  input,
  text,
  funder = null,
  signal,
}: {
  viewer: Viewer
  input: NarrativeInput
  text: string
  funder?: ForFunder | null
  signal?: AbortSignal
}) {
  const columns = await textColumnsInPool(text, { ...input, ...funder }, funder?.brief ?? null, signal)
  const narrative = await prisma.$transaction(async (tx) => {
    await lockInvariant(tx, 'claims')
    if ((await tx.narrative.count({ where: { userId: viewer.id } })) >= getEnv().MAX_SAVED_NARRATIVES) throw new SavedLimitError()
    const created = await tx.narrative.create({
      data: {
        ...toNarrativeColumns(input),
        ...funder,
        userId: viewer.id,
        generatedNarrative: text,
        ...columns,
        status: 'complete',
        engine: MANUAL_ENGINE,
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
