import { lockInvariant, prisma, Prisma } from '~/server/platform/db.server'
import { log } from '~/server/platform/logger.server'
import { getUserSummary } from '~/server/accounts/users.server'
import { stopGenerationsOf } from '~/server/generation/job/jobs.server'
import { RefusedError } from '~/server/platform/refused-error.server'
import { announceSessionChange } from '~/server/accounts/session-events.server'

export type UserChanges = { disabled?: boolean; dailyLimit?: number | null; isAdmin?: boolean }

export const CANNOT_DISABLE_SELF = 'You cannot disable your own account.'
export const CANNOT_DEMOTE_SELF = 'You cannot remove your own administrator role.'
export const USER_NOT_FOUND = 'User not found'
export const NOT_AN_ADMIN = 'Administrator access required'

export class UserControlError extends RefusedError<403 | 404 | 409> {}

/**
 * One conditional UPDATE that holds only while the actor is an active administrator. As the actor may
 * not disable or demote themselves, the instance always keeps an administrator, even when two disable
 * each other at the same moment (the second statement finds its actor disabled).
 */
export async function updateUserControls(actor: { id: string }, userId: string, changes: UserChanges) {
  if (userId === actor.id && (changes.disabled === true || changes.isAdmin === false)) {
    const message = changes.disabled === true ? CANNOT_DISABLE_SELF : CANNOT_DEMOTE_SELF
    log('warn', 'user.update_refused', { actorId: actor.id, userId, reason: 'self' })
    throw new UserControlError(message, 409)
  }
  const now = new Date()
  const disabledUser = Prisma.sql`EXISTS (SELECT 1 FROM "User" WHERE "id" = ${userId} AND "disabledAt" IS NOT NULL)`
  // Under the accounts' lock: on PostgreSQL, two administrators disabling each other at once would
  // otherwise each find the other still active, and leave none.
  const updated = await prisma.$transaction(async (tx) => {
    await lockInvariant(tx, 'accounts')
    const changed = await tx.$executeRaw`
      UPDATE "User" SET ${Prisma.join(assignments(changes, now))}
      WHERE "id" = ${userId}
        AND EXISTS (SELECT 1 FROM "User" WHERE "id" = ${actor.id} AND "isAdmin" = TRUE AND "disabledAt" IS NULL)`
    await tx.$executeRaw`DELETE FROM "Session" WHERE "userId" = ${userId} AND ${disabledUser}`
    await tx.$executeRaw`DELETE FROM "PasswordReset" WHERE "userId" = ${userId} AND "usedAt" IS NULL AND ${disabledUser}`
    return changed
  })
  if (updated !== 1) throw await whyNotUpdated(actor.id, userId)
  log('info', 'user.updated', { actorId: actor.id, userId, changes })
  if (changes.disabled) {
    announceSessionChange({ kind: 'ended', userId })
    void stopGenerationsOf(userId)
  }
  if (changes.isAdmin === false) announceSessionChange({ kind: 'demoted', userId })
  return (await getUserSummary(userId))!
}

function assignments({ disabled, dailyLimit, isAdmin }: UserChanges, now: Date): Prisma.Sql[] {
  const set = [Prisma.sql`"updatedAt" = ${now}`]
  // Disabling a disabled account keeps the time it was first disabled.
  if (disabled !== undefined)
    set.push(disabled ? Prisma.sql`"disabledAt" = COALESCE("disabledAt", ${now})` : Prisma.sql`"disabledAt" = NULL`)
  if (dailyLimit !== undefined) set.push(Prisma.sql`"dailyLimit" = ${dailyLimit}`)
  if (isAdmin !== undefined) set.push(Prisma.sql`"isAdmin" = ${Prisma.raw(isAdmin ? 'TRUE' : 'FALSE')}`)
  return set
}

async function whyNotUpdated(actorId: string, userId: string): Promise<UserControlError> {
  const target = await prisma.user.findUnique({ where: { id: userId }, select: { id: true } })
  const reason = target ? 'actor_not_admin' : 'not_found'
  log('warn', 'user.update_refused', { actorId, userId, reason })
  return target ? new UserControlError(NOT_AN_ADMIN, 403) : new UserControlError(USER_NOT_FOUND, 404)
}
