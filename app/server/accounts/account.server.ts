import { lockInvariant, prisma } from '~/server/platform/db.server'
import { hashToken } from '~/server/platform/crypto.server'
import { log } from '~/server/platform/logger.server'
import { mailAfterAnswering, sendEmail } from '~/server/accounts/email.server'
import { hashPassword, verifyPassword } from '~/server/accounts/password.server'
import { rateLimitStore } from '~/server/edge/rate-limit.server'
import { enforceRateLimit, pairKey, RATE_LIMITS } from '~/server/edge/limits.server'
import { stopGenerationsOf } from '~/server/generation/job/jobs.server'
import { deleteUserKeepingQuota } from '~/server/usage/quota.server'
import { RefusedError } from '~/server/platform/refused-error.server'
import { announceSessionChange } from '~/server/accounts/session-events.server'
import type { LocaleChoices } from '~/shared/locale'

// What a signed-in person changes about their own account (/account and /auth/profile; decision 022).
// Every function takes the signed-in user and touches only their rows.

type Owner = { id: string }

export const WRONG_PASSWORD = 'Your current password is not right'
export const ACCOUNT_DELETED = 'Your account and all its data have been deleted.'
export const LAST_ADMIN = 'You are the only administrator. Make someone else an administrator before you delete your account.'

export class AccountError extends RefusedError<400 | 403 | 409> {
  constructor(message: string, status: 400 | 403 | 409, field?: string) {
    super(message, status, undefined, field)
  }
}

/** Every attempt counts as a sign-in's does; the right password takes its attempt back, so only wrong ones add up. */
export async function confirmPassword(user: Owner, password: string, field = 'currentPassword') {
  await enforceRateLimit('account', user.id)
  const row = await prisma.user.findUnique({ where: { id: user.id }, select: { passwordHash: true } })
  if (!(await verifyPassword(row?.passwordHash ?? undefined, password))) {
    log('warn', 'account.password_refused', { userId: user.id })
    throw new AccountError(WRONG_PASSWORD, 403, field)
  }
  await rateLimitStore.count(pairKey('account', user.id), RATE_LIMITS.account.pair.windowMs, -1)
}

export async function renameUser(user: Owner, { firstName, lastName }: { firstName: string; lastName: string }) {
  const updated = await prisma.user.update({
    where: { id: user.id },
    data: { firstName, lastName },
    select: { id: true, email: true, firstName: true, lastName: true, isAdmin: true },
  })
  log('info', 'account.renamed', { userId: user.id })
  return updated
}

/** How their pages and files are written (docs/decisions/043); a choice left out is "from my browser". */
export async function saveLocaleChoices(user: Owner, choices: Partial<LocaleChoices>) {
  await prisma.user.update({
    where: { id: user.id },
    data: {
      languageVariety: choices.variety ?? null,
      dateFormat: choices.dateFormat ?? null,
      currency: choices.currency ?? null,
      paper: choices.paper ?? null,
    },
    select: { id: true },
  })
  log('info', 'account.locale_saved', { userId: user.id })
}

/** Ends every other session and token of the user, and their unused emailed links: only `keepSession` stays. */
export async function changePassword(
  user: Owner,
  { currentPassword, newPassword, keepSession }: { currentPassword: string; newPassword: string; keepSession: string },
) {
  await confirmPassword(user, currentPassword)
  // Hashed before the transaction, which must not wait on argon2 (decision 016).
  const passwordHash = await hashPassword(newPassword)
  const [owner, ended] = await prisma.$transaction([
    prisma.user.update({ where: { id: user.id }, data: { passwordHash }, select: { email: true, firstName: true } }),
    prisma.session.deleteMany({ where: { userId: user.id, id: { not: hashToken(keepSession) } } }),
    prisma.passwordReset.deleteMany({ where: { userId: user.id, usedAt: null, purpose: { in: ['reset', 'invite', 'email'] } } }),
  ])
  announceSessionChange({ kind: 'ended', userId: user.id, except: hashToken(keepSession) })
  log('info', 'account.password_changed', { userId: user.id, sessionsEnded: ended.count })
  mailNotice(owner, 'Your Impact Narrative Studio password was changed', [
    'The password of your Impact Narrative Studio account was just changed, and every other device',
    'signed in to it was signed out.',
    '',
    'If you did not do this, reset your password now with "Forgot your password?" on the sign-in page,',
    'and tell your administrator.',
  ])
}

/**
 * One conditional UPDATE first disables the account unless it is the last active administrator (of two
 * at once, the second finds the first disabled); its running generations are stopped and saved, so none
 * writes into a deleted narrative; then the row goes, and the schema cascades the rest.
 */
export async function deleteAccount(user: Owner, password: string) {
  await confirmPassword(user, password, 'password')
  const owner = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { email: true, firstName: true } })
  const leftAt = new Date()
  const leaving = await prisma.$transaction(async (tx) => {
    await lockInvariant(tx, 'accounts')
    return tx.$executeRaw`
      UPDATE "User" SET "disabledAt" = ${leftAt}
      WHERE "id" = ${user.id}
        AND ("isAdmin" = FALSE OR EXISTS (
          SELECT 1 FROM "User" WHERE "isAdmin" = TRUE AND "disabledAt" IS NULL AND "id" <> ${user.id}))`
  })
  if (leaving !== 1) {
    log('warn', 'account.delete_refused', { userId: user.id, reason: 'last_admin' })
    throw new AccountError(LAST_ADMIN, 409)
  }
  try {
    await stopGenerationsOf(user.id)
    await deleteUserKeepingQuota(user.id)
    announceSessionChange({ kind: 'ended', userId: user.id })
  } catch (error) {
    // Not deleted after all: the account is usable again, to try once more.
    await prisma.$executeRaw`UPDATE "User" SET "disabledAt" = NULL WHERE "id" = ${user.id} AND "disabledAt" = ${leftAt}`
    throw error
  }
  log('info', 'account.deleted', { userId: user.id })
  mailNotice(owner, 'Your Impact Narrative Studio account was deleted', [
    'Your Impact Narrative Studio account was deleted, with every narrative, version, variant and funder brief in it.',
    'Nothing of it is kept. If you did not do this, tell your administrator.',
  ])
}

/** After the answer has gone, a notice to the account's owner at their address. */
export function mailNotice(owner: { email: string; firstName: string }, subject: string, lines: string[]) {
  mailAfterAnswering('account.notice_failed', () => sendEmail({ to: owner.email, subject, text: notice(owner.firstName, lines) }))
}

export function notice(firstName: string, lines: string[]) {
  return [firstName ? `Hello ${firstName},` : 'Hello,', '', ...lines, '', 'Impact Narrative Studio'].join('\n')
}
