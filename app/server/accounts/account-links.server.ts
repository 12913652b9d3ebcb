import { type Prisma, prisma } from '~/server/platform/db.server'
import { createSecretToken, hashToken } from '~/server/platform/crypto.server'
import { announceSessionChange } from '~/server/accounts/session-events.server'

// Emailed single-use links share one table, told apart by `purpose`, so a link of one kind never
// works as another (decision 022).
export type LinkPurpose = 'reset' | 'invite' | 'email'

export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  reset: 30 * 60 * 1000,
  invite: 7 * 24 * 60 * 60 * 1000,
  email: 24 * 60 * 60 * 1000,
}

// A reset and an invitation both set the password, so a new one of either voids the other.
const VOIDS: Record<LinkPurpose, LinkPurpose[]> = { reset: ['reset', 'invite'], invite: ['reset', 'invite'], email: ['email'] }

const ENDS_SESSIONS: Record<LinkPurpose, boolean> = { reset: true, invite: true, email: false }

export async function issueLink(userId: string, purpose: LinkPurpose, newEmail?: string): Promise<string> {
  const token = createSecretToken()
  await prisma.$transaction([
    prisma.passwordReset.deleteMany({ where: { userId, usedAt: null, purpose: { in: VOIDS[purpose] } } }),
    prisma.passwordReset.create({
      data: { tokenHash: hashToken(token), purpose, newEmail, userId, expiresAt: new Date(Date.now() + LINK_TTL_MS[purpose]) },
    }),
  ])
  return token
}

function live(purpose: LinkPurpose): Prisma.PasswordResetWhereInput {
  return { purpose, usedAt: null, expiresAt: { gt: new Date() }, user: { disabledAt: null } }
}

export async function findLinkUser(token: string, purpose: LinkPurpose) {
  const link = await prisma.passwordReset.findFirst({
    where: { tokenHash: hashToken(token), ...live(purpose) },
    select: { newEmail: true, user: { select: { id: true, email: true, firstName: true } } },
  })
  return link ? { ...link.user, newEmail: link.newEmail } : null
}

type LinkRow = { id: string; userId: string; newEmail: string | null }

/**
 * One conditional update redeems the link, so it works once even for two requests at the same instant.
 * `changes` runs before the transaction: hashing a password there would hold up every other statement
 * (decision 016). A failed change (an email taken since) throws, and the link stays unused.
 */
export async function redeemLink(
  token: string,
  purpose: LinkPurpose,
  changes: (link: LinkRow) => Promise<Prisma.UserUpdateInput>,
  { forUser }: { forUser?: string } = {},
) {
  const link = await prisma.passwordReset.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, userId: true, newEmail: true },
  })
  if (!link || (forUser !== undefined && link.userId !== forUser)) return { userId: link?.userId ?? null, redeemed: false }
  const data = await changes(link)
  const redeemed = await prisma.$transaction(async (tx) => {
    const { count } = await tx.passwordReset.updateMany({ where: { id: link.id, ...live(purpose) }, data: { usedAt: new Date() } })
    if (count !== 1) return false
    await tx.user.update({ where: { id: link.userId }, data })
    if (ENDS_SESSIONS[purpose]) await tx.session.deleteMany({ where: { userId: link.userId } })
    return true
  })
  if (redeemed && ENDS_SESSIONS[purpose]) announceSessionChange({ kind: 'ended', userId: link.userId })
  return { userId: link.userId, redeemed }
}
