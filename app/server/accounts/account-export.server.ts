import { prisma } from '~/server/platform/db.server'
import { log } from '~/server/platform/logger.server'
import { toApiNarrative, WITH_OWNER } from '~/server/narratives/narratives.server'
import { toApiVersion, VERSIONS_NEWEST_FIRST } from '~/server/narratives/versions.server'
import { toApiVariant, WRITTEN_VARIANTS } from '~/server/narratives/variants.server'

// A person's data, theirs to take (decision 022): the profile, and every narrative they own with its
// versions and variants, in the shapes the token API reads them. Only the user's own rows, even for an
// administrator; the fields are listed, so no password hash, token or link can slip in.

const PROFILE_FIELDS = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  isAdmin: true,
  createdAt: true,
  termsAcceptedAt: true,
  marketingConsentAt: true,
  dailyLimit: true,
} as const

export async function exportAccount(user: { id: string }) {
  const [profile, narratives] = await Promise.all([
    prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: PROFILE_FIELDS }),
    prisma.narrative.findMany({
      where: { userId: user.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      include: { ...WITH_OWNER, versions: VERSIONS_NEWEST_FIRST, variants: WRITTEN_VARIANTS },
    }),
  ])
  log('info', 'account.exported', { userId: user.id, narratives: narratives.length })
  return {
    exportedAt: new Date().toISOString(),
    profile: {
      ...profile,
      createdAt: profile.createdAt.toISOString(),
      termsAcceptedAt: profile.termsAcceptedAt?.toISOString() ?? null,
      marketingConsentAt: profile.marketingConsentAt?.toISOString() ?? null,
    },
    narratives: narratives.map(({ versions, variants, ...narrative }) => ({
      ...toApiNarrative(narrative),
      versions: versions.map(toApiVersion),
      variants: variants.map((variant) => toApiVariant(variant, narrative)),
    })),
  }
}

/** The export as a download: a JSON attachment named with the day (never cached: the session lookup marked the answer private). */
export async function accountExportResponse(user: { id: string }) {
  const data = await exportAccount(user)
  const day = data.exportedAt.slice(0, 10)
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="impact-narrative-studio-account-${day}.json"`,
    },
  })
}
