import { prisma } from '~/server/platform/db.server'
import { log } from '~/server/platform/logger.server'
import { enforceEditRateLimit } from '~/server/edge/limits.server'
import { ownedBy, type Viewer } from '~/server/narratives/access.server'
import { isStage, STAGES, type Stage } from '~/shared/stages'

/** The order of the way (docs/decisions/051): awarded and declined are one step, either replaces the other. */
const STEP: Record<Stage, number> = { drafting: 0, in_review: 1, submitted: 2, awarded: 3, declined: 3 }

export type StageReached = { stage: Stage; at: Date }

/**
 * Moves the narrative to `stage`, dated now; a step back forgets the stages after it, so the way shown
 * is the one the application really took. The same stage again keeps its date. Null: not the viewer's.
 * Throws RateLimitError past EDITS_PER_MINUTE, which it shares with the text's edits.
 */
export async function setStage({ id, viewer, stage }: { id: string; viewer: Viewer; stage: Stage }) {
  await enforceEditRateLimit(viewer.id)
  const before = await prisma.$transaction(async (tx) => {
    const found = await tx.narrative.findFirst({ where: { id, ...ownedBy(viewer) }, select: { id: true, stage: true, createdAt: true } })
    if (!found || found.stage === stage) return found && { ...found, changed: false }
    // The row's update comes first: on PostgreSQL it locks the narrative, so two changes at once are made one after the other.
    await tx.narrative.update({ where: { id }, data: { stage } })
    const fromHere = STAGES.filter((other) => STEP[other] >= STEP[stage])
    await tx.narrativeStage.deleteMany({ where: { narrativeId: id, stage: { in: fromHere } } })
    await tx.narrativeStage.create({ data: { narrativeId: id, stage } })
    return { ...found, changed: true }
  })
  if (!before) return null
  if (before.changed) log('info', 'narrative.stage', { userId: viewer.id, narrativeId: id, from: before.stage, stage })
  return stagesOf(before)
}

export async function stagesOf(narrative: { id: string; createdAt: Date }): Promise<StageReached[]> {
  const rows = await prisma.narrativeStage.findMany({ where: { narrativeId: narrative.id }, select: { stage: true, at: true } })
  return wayOf(rows, narrative.createdAt)
}

/** The stages reached in the order of the way; drafting began when the narrative was made, unless it was set again. */
export function wayOf(rows: { stage: string; at: Date }[], createdAt: Date): StageReached[] {
  const reached = rows.flatMap(({ stage, at }) => (isStage(stage) ? [{ stage, at }] : []))
  if (!reached.some(({ stage }) => stage === 'drafting')) reached.push({ stage: 'drafting', at: createdAt })
  return reached.sort((a, b) => STEP[a.stage] - STEP[b.stage])
}

export function toApiStages(stages: StageReached[]) {
  return stages.map(({ stage, at }) => ({ stage, at: at.toISOString() }))
}
