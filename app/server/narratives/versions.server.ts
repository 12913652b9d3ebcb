import { diffWordsWithSpace } from 'diff'
import { Prisma } from '@prisma/client'
import { prisma } from '~/server/platform/db.server'
import { log } from '~/server/platform/logger.server'
import { createRowId, ownedBy, type Viewer } from '~/server/narratives/narratives.server'

// Every text a narrative has had (docs/decisions/020). A version is written in the same
// transaction as the text it records, so the history never misses or invents a text.

export const VERSION_SOURCES = ['generated', 'edited', 'restored'] as const
export type VersionSource = (typeof VERSION_SOURCES)[number]

/** Records `text` as the narrative's newest version. Raw: a generation's end is a hot path (decision 006). */
export async function recordVersion(tx: Prisma.TransactionClient, narrativeId: string, text: string, source: VersionSource) {
  const id = createRowId()
  await tx.$executeRaw`
    INSERT INTO "NarrativeVersion" ("id", "narrativeId", "text", "source", "createdAt")
    VALUES (${id}, ${narrativeId}, ${text}, ${source}, ${new Date()})`
}

const VERSION_FIELDS = { id: true, text: true, source: true, createdAt: true } as const
export type NarrativeVersionRecord = Prisma.NarrativeVersionGetPayload<{ select: typeof VERSION_FIELDS }>

/** A narrative's versions as every reader lists them: newest first. */
export const VERSIONS_NEWEST_FIRST = {
  orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  select: VERSION_FIELDS,
} satisfies Prisma.Narrative$versionsArgs

/** The versions of a narrative the viewer may see, newest first; null when they may not see it. */
export async function listVersions({ id, viewer }: { id: string; viewer: Viewer }) {
  const narrative = await prisma.narrative.findFirst({ where: { id, ...ownedBy(viewer) }, select: { versions: VERSIONS_NEWEST_FIRST } })
  return narrative?.versions ?? null
}

/**
 * Makes an earlier version the current text, and records that as a version of its own. False when the
 * narrative is not the viewer's, is being written, or has no such version.
 */
export async function restoreVersion({ id, versionId, viewer }: { id: string; versionId: string; viewer: Viewer }) {
  const restored = await prisma.$transaction(async (tx) => {
    const version = await tx.narrativeVersion.findFirst({
      where: { id: versionId, narrative: { id, ...ownedBy(viewer), status: { not: 'generating' } } },
      select: { text: true },
    })
    if (!version) return false
    await tx.narrative.update({ where: { id }, data: { generatedNarrative: version.text } })
    await recordVersion(tx, id, version.text, 'restored')
    return true
  })
  if (restored) log('info', 'narrative.restored', { userId: viewer.id, narrativeId: id, versionId })
  return restored
}

export function toApiVersion(version: NarrativeVersionRecord) {
  return { id: version.id, text: version.text, source: version.source, createdAt: version.createdAt.toISOString() }
}

/** A word-level difference from `from` to `to`: unchanged, removed and added runs in order. */
export type WordDiffPart = { text: string; change: 'same' | 'removed' | 'added' }

export function compareWords(from: string, to: string): WordDiffPart[] {
  return diffWordsWithSpace(from, to).map((part) => ({
    text: part.value,
    change: part.added ? 'added' : part.removed ? 'removed' : 'same',
  }))
}
