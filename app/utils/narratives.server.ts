import { prisma } from './db.server'
import type { NarrativeInput } from './narrative-schema'

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
    tone: input.selectedTone,
  }
}

type Viewer = { id: string; isAdmin: boolean }

/** Ownership in one place: an admin reaches any narrative, anyone else only their own. */
export function ownedBy(viewer: Viewer) {
  return viewer.isAdmin ? {} : { userId: viewer.id }
}

/** A narrative the viewer may see, or null (a foreign id reads exactly like a missing one). */
export function getNarrative({ id, viewer }: { id: string; viewer: Viewer }) {
  return prisma.narrative.findFirst({
    where: { id, ...ownedBy(viewer) },
    include: { user: { select: { firstName: true, lastName: true, email: true } } },
  })
}
