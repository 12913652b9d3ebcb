import { createSecretToken, hashToken } from '~/server/platform/crypto.server'
import { prisma } from '~/server/platform/db.server'
import { mailAfterAnswering, sendEmail } from '~/server/accounts/email.server'
import { rateLimitStore } from '~/server/edge/rate-limit.server'
import { getEnv } from '~/server/platform/env.server'
import { log } from '~/server/platform/logger.server'
import { hashPassword } from '~/server/accounts/password.server'

export const RESET_TTL_MS = 30 * 60 * 1000

/** Reset mails to one account in an hour, whoever asks: past it the answer is the same, but no mail goes. */
export const RESET_MAILS_PER_ACCOUNT = { limit: 5, windowMs: 60 * 60 * 1000 }

/**
 * Emails a reset link when the account exists, after the request is answered: the answer is the same,
 * in the same time, whether or not it exists and whether or not the mail goes through. A new link
 * voids every older one of the user.
 */
export function requestPasswordReset(email: string) {
  mailAfterAnswering('auth.reset_mail_failed', () => sendResetLink(email))
}

async function sendResetLink(email: string) {
  const user = await prisma.user.findUnique({ where: { email }, select: { id: true, firstName: true, email: true } })
  if (!user) {
    log('info', 'auth.reset_requested_unknown')
    return
  }
  const mails = await rateLimitStore.count(`reset-mail:${user.id}`, RESET_MAILS_PER_ACCOUNT.windowMs)
  if (mails.count > RESET_MAILS_PER_ACCOUNT.limit) {
    log('warn', 'auth.reset_suppressed', { userId: user.id })
    return
  }
  const token = createSecretToken()
  await prisma.$transaction([
    prisma.passwordReset.deleteMany({ where: { userId: user.id, usedAt: null } }),
    prisma.passwordReset.create({
      data: { tokenHash: hashToken(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_TTL_MS) },
    }),
  ])
  const link = `${getEnv().appOrigin}/reset-password?token=${encodeURIComponent(token)}`
  await sendEmail({ to: user.email, subject: 'Reset your Impact Narrative Studio password', text: resetEmailText(user.firstName, link) })
  log('info', 'auth.reset_requested', { userId: user.id })
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
  const reset = await prisma.passwordReset.findUnique({ where: { tokenHash: hashToken(token) } })
  return Boolean(reset && !reset.usedAt && reset.expiresAt > new Date())
}

/**
 * Redeems the token with one conditional update (so it works once, even for two requests at the
 * same instant), sets the password and revokes every session and API token of the user.
 */
export async function resetPassword(token: string, newPassword: string): Promise<boolean> {
  const reset = await prisma.passwordReset.findUnique({ where: { tokenHash: hashToken(token) }, select: { id: true, userId: true } })
  if (!reset) return false
  const passwordHash = await hashPassword(newPassword)
  const redeemed = await prisma.$transaction(async (tx) => {
    const { count } = await tx.passwordReset.updateMany({
      where: { id: reset.id, usedAt: null, expiresAt: { gt: new Date() } },
      data: { usedAt: new Date() },
    })
    if (count !== 1) return false
    await tx.user.update({ where: { id: reset.userId }, data: { passwordHash } })
    await tx.session.deleteMany({ where: { userId: reset.userId } })
    return true
  })
  log(redeemed ? 'info' : 'warn', redeemed ? 'auth.reset_completed' : 'auth.reset_rejected', { userId: reset.userId })
  return redeemed
}
