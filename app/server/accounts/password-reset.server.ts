import { prisma } from '~/server/platform/db.server'
import { mailAfterAnswering, sendEmail } from '~/server/accounts/email.server'
import { findLinkUser, issueLink, LINK_TTL_MS, redeemLink } from '~/server/accounts/account-links.server'
import { sendInvitation } from '~/server/accounts/invitations.server'
import { rateLimitStore } from '~/server/edge/rate-limit.server'
import { getEnv } from '~/server/platform/env.server'
import { log } from '~/server/platform/logger.server'
import { hashPassword } from '~/server/accounts/password.server'

export const RESET_TTL_MS = LINK_TTL_MS.reset

/** Whoever asks: past it the answer is the same, but no mail goes. */
export const RESET_MAILS_PER_ACCOUNT = { limit: 5, windowMs: 60 * 60 * 1000 }

/**
 * The mail goes after answering, so the answer is the same, in the same time, whether or not the
 * account exists. An invited account gets a fresh invitation instead (its first mail may be lost).
 */
export function requestPasswordReset(email: string) {
  mailAfterAnswering('auth.reset_mail_failed', () => sendResetLink(email))
}

async function sendResetLink(email: string) {
  const user = await prisma.user.findUnique({
    where: { email },
    select: { id: true, firstName: true, email: true, disabledAt: true, passwordHash: true },
  })
  if (!user) {
    log('info', 'auth.reset_requested_unknown')
    return
  }
  if (user.disabledAt) {
    log('warn', 'auth.reset_refused_disabled', { userId: user.id })
    return
  }
  const mails = await rateLimitStore.count(`reset-mail:${user.id}`, RESET_MAILS_PER_ACCOUNT.windowMs)
  // The cap outlasts a link, and must never leave the owner without one that works.
  if (mails.count > RESET_MAILS_PER_ACCOUNT.limit && (await hasLiveLink(user.id))) {
    log('warn', 'auth.reset_suppressed', { userId: user.id })
    return
  }
  if (user.passwordHash === null) {
    await sendInvitation(user)
    log('info', 'auth.invitation_requested', { userId: user.id })
    return
  }
  const token = await issueLink(user.id, 'reset')
  const link = `${getEnv().appOrigin}/reset-password?token=${encodeURIComponent(token)}`
  await sendEmail({ to: user.email, subject: 'Reset your Impact Narrative Studio password', text: resetEmailText(user.firstName, link) })
  log('info', 'auth.reset_requested', { userId: user.id })
}

function hasLiveLink(userId: string) {
  const where = { userId, purpose: { in: ['reset', 'invite'] }, usedAt: null, expiresAt: { gt: new Date() } }
  return prisma.passwordReset.count({ where }).then(Boolean)
}

function resetEmailText(firstName: string, link: string) {
  return [
    `Hello ${firstName},`,
    '',
    'Someone (we hope you) asked to reset the password of your Impact Narrative Studio account.',
    'To choose a new password, open this link:',
    '',
    link,
    '',
    'The link will expire in 30 minutes and works once.',
    'If you did not ask for this, you can ignore this email: your password stays as it is.',
    '',
    'Impact Narrative Studio',
  ].join('\n')
}

export async function isResetTokenValid(token: string): Promise<boolean> {
  return (await findLinkUser(token, 'reset')) !== null
}

/** A reset never re-enables a disabled account: its link is refused. */
export async function resetPassword(token: string, newPassword: string): Promise<boolean> {
  const { userId, redeemed } = await redeemLink(token, 'reset', async () => ({ passwordHash: await hashPassword(newPassword) }))
  if (userId) log(redeemed ? 'info' : 'warn', redeemed ? 'auth.reset_completed' : 'auth.reset_rejected', { userId })
  return redeemed
}
