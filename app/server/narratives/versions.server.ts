import { prisma, Prisma } from '~/server/platform/db.server'
import { log } from '~/server/platform/logger.server'
import { createRowId } from '~/server/platform/row-id.server'
import { ownedBy, type Viewer } from '~/server/narratives/access.server'
import { textColumnsInPool } from '~/server/narratives/alignment.server'
import { enforceEditRateLimit } from '~/server/edge/limits.server'
import { EDIT_SESSION_MS } from '~/shared/narrative-text'

// Every text a narrative has had, within bounds (docs/decisions/020). A version is written in the same
// transaction as the text it records, so the history never misses or invents a text.

export const VERSION_SOURCES = ['generated', 'edited', 'restored'] as const
export type VersionSource = (typeof VERSION_SOURCES)[number]

/** The versions a narrative keeps: the newest, and its first text, however long ago. */
export const VERSIONS_KEPT = 50

/** Never forgets the first. Raw: a generation's end is a hot path (decision 006). */
export async function recordVersion(tx: Prisma.TransactionClient, narrativeId: string, text: string, source: VersionSource) {
  const now = new Date()
  if (source === 'edited' && (await extendEditSession(tx, narrativeId, text, now))) return
  await tx.$executeRaw`
    INSERT INTO "NarrativeVersion" ("id", "narrativeId", "text", "source", "createdAt")
    VALUES (${createRowId()}, ${narrativeId}, ${text}, ${source}, ${now})`
  await tx.$executeRaw`
    DELETE FROM "NarrativeVersion"
    WHERE "narrativeId" = ${narrativeId} AND "id" NOT IN (
      SELECT "id" FROM (SELECT "id" FROM "NarrativeVersion" WHERE "narrativeId" = ${narrativeId}
                        ORDER BY "createdAt" DESC, "id" DESC LIMIT ${VERSIONS_KEPT - 1}) AS "newest"
      UNION
      SELECT "id" FROM (SELECT "id" FROM "NarrativeVersion" WHERE "narrativeId" = ${narrativeId}
                        ORDER BY "createdAt" ASC, "id" ASC LIMIT 1) AS "first")`
}

/** The first text the narrative kept (recordVersion never forgets it); null for one saved before versions were kept. */
export async function getFirstText(narrativeId: string): Promise<string | null> {
  const first = await prisma.narrativeVersion.findFirst({
    where: { narrativeId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { text: true },
  })
  return first?.text ?? null
}

/** An edit while the newest version is an edit of the last EDIT_SESSION_MS replaces that version's text. */
async function extendEditSession(tx: Prisma.TransactionClient, narrativeId: string, text: string, now: Date) {
  const newest = await tx.narrativeVersion.findFirst({
    where: { narrativeId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, source: true, createdAt: true },
  })
  if (newest?.source !== 'edited' || now.getTime() - newest.createdAt.getTime() > EDIT_SESSION_MS) return false
  // Is this edit still the narrative's first text? Then it stays, and the new text is a version of its own.
  if ((await tx.narrativeVersion.count({ where: { narrativeId } })) === 1) return false
  await tx.narrativeVersion.update({ where: { id: newest.id }, data: { text, createdAt: now } })
  return true
}

const VERSION_SUMMARY = { id: true, source: true, createdAt: true } as const
const VERSION_FIELDS = { ...VERSION_SUMMARY, text: true } as const
export type NarrativeVersionRecord = Prisma.NarrativeVersionGetPayload<{ select: typeof VERSION_FIELDS }>

const NEWEST_FIRST = [{ createdAt: 'desc' }, { id: 'desc' }] satisfies Prisma.NarrativeVersionOrderByWithRelationInput[]

export const VERSION_SUMMARIES_NEWEST_FIRST = { orderBy: NEWEST_FIRST, select: VERSION_SUMMARY } satisfies Prisma.Narrative$versionsArgs
export const VERSIONS_NEWEST_FIRST = { orderBy: NEWEST_FIRST, select: VERSION_FIELDS } satisfies Prisma.Narrative$versionsArgs

/** Null when the viewer may not see the narrative. */
export async function listVersions({ id, viewer, page, limit }: { id: string; viewer: Viewer; page: number; limit: number }) {
  const narrative = await prisma.narrative.findFirst({
    where: { id, ...ownedBy(viewer) },
    select: { _count: { select: { versions: true } }, versions: { ...VERSIONS_NEWEST_FIRST, skip: (page - 1) * limit, take: limit } },
  })
  if (!narrative) return null
  const total = narrative._count.versions
  return { data: narrative.versions, pagination: { page, limit, total, pages: Math.max(1, Math.ceil(total / limit)) } }
}

export function getVersion({ id, versionId, viewer }: { id: string; versionId: string; viewer: Viewer }) {
  return prisma.narrativeVersion.findFirst({ where: { id: versionId, narrative: { id, ...ownedBy(viewer) } }, select: VERSION_FIELDS })
}

/** False when the narrative is not the viewer's, is being written, or has no such version. Throws RateLimitError like an edit. */
export async function restoreVersion({
  id,
  versionId,
  viewer,
  signal,
}: {
  id: string
  versionId: string
  viewer: Viewer
  signal?: AbortSignal
}) {
  await enforceEditRateLimit(viewer.id)
  const where = { id: versionId, narrative: { id, ...ownedBy(viewer), status: { not: 'generating' } } }
  // A version's text never changes, nor the inputs it is traced to: its columns are found in the pool first.
  const chosen = await prisma.narrativeVersion.findFirst({ where, select: { text: true, narrative: true } })
  if (!chosen) return false
  const columns = await textColumnsInPool(chosen.text, chosen.narrative, chosen.narrative.brief, signal)
  const restored = await prisma.$transaction(async (tx) => {
    const version = await tx.narrativeVersion.findFirst({ where, select: { text: true } })
    if (!version) return false
    await tx.narrative.update({ where: { id }, data: { generatedNarrative: version.text, ...columns } })
    await recordVersion(tx, id, version.text, 'restored')
    return true
  })
  if (restored) log('info', 'narrative.restored', { userId: viewer.id, narrativeId: id, versionId })
  return restored
}

export function toApiVersion(version: NarrativeVersionRecord) {
  return { id: version.id, text: version.text, source: version.source, createdAt: version.createdAt.toISOString() }
}
