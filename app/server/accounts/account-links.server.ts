import type { Prisma } from '@prisma/client'
import { createSecretToken, hashToken } from '~/server/platform/crypto.server'
import { prisma } from '~/server/platform/db.server'

/**
 * Emailed single-use links that let their holder set the account's password: a forgotten-password
 * reset, or an administrator's invitation. Both live in one table, told apart by `purpose`, so a
 * link of one kind never works as the other.
 */
export type LinkPurpose = 'reset' | 'invite'

export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  reset: 30 * 60 * 1000,
  invite: 7 * 24 * 60 * 60 * 1000,
}

/** A new link for the user; it voids every older unused one of theirs, whatever its purpose. */
export async function issueLink(userId: string, purpose: LinkPurpose): Promise<string> {
  const token = createSecretToken()
  await prisma.$transaction([
    prisma.passwordReset.deleteMany({ where: { userId, usedAt: null } }),
    prisma.passwordReset.create({
      data: { tokenHash: hashToken(token), purpose, userId, expiresAt: new Date(Date.now() + LINK_TTL_MS[purpose]) },
    }),
  ])
  return token
}

/** What makes a link usable now: unused, unexpired, of this purpose, and its user not disabled. */
function live(purpose: LinkPurpose): Prisma.PasswordResetWhereInput {
  return { purpose, usedAt: null, expiresAt: { gt: new Date() }, user: { disabledAt: null } }
}

/** The user a usable link belongs to, or null. */
export async function findLinkUser(token: string, purpose: LinkPurpose) {
  const link = await prisma.passwordReset.findFirst({
    where: { tokenHash: hashToken(token), ...live(purpose) },
    select: { user: { select: { id: true, email: true, firstName: true } } },
  })
  return link?.user ?? null
}

/**
 * Redeems the link with one conditional update (so it works once, even for two requests at the same
 * instant), applies `changes()` to its user and revokes every session and API token of the user.
 * `changes` runs only for a link that exists, and before the transaction: hashing a password there
 * would hold up every other statement (decision 016).
 */
export async function redeemLink(token: string, purpose: LinkPurpose, changes: () => Promise<Prisma.UserUpdateInput>) {
  const link = await prisma.passwordReset.findUnique({ where: { tokenHash: hashToken(token) }, select: { id: true, userId: true } })
  if (!link) return { userId: null, redeemed: false }
  const data = await changes()
  const redeemed = await prisma.$transaction(async (tx) => {
    const { count } = await tx.passwordReset.updateMany({ where: { id: link.id, ...live(purpose) }, data: { usedAt: new Date() } })
    if (count !== 1) return false
    await tx.user.update({ where: { id: link.userId }, data })
    await tx.session.deleteMany({ where: { userId: link.userId } })
    return true
  })
  return { userId: link.userId, redeemed }
}
