import type { Prisma } from '~/server/platform/db.server'

/** Who is reading: ownership of narratives, their versions and variants is decided here. */
export type Viewer = { id: string; isAdmin: boolean }

export function ownedBy(viewer: Viewer): Prisma.NarrativeWhereInput {
  return viewer.isAdmin ? {} : { userId: viewer.id }
}
