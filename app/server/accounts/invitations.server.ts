import { prisma, Prisma } from '~/server/platform/db.server'
import { getEnv } from '~/server/platform/env.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { findLinkUser, issueLink, redeemLink } from '~/server/accounts/account-links.server'
import { sendEmail } from '~/server/accounts/email.server'
import { hashPassword } from '~/server/accounts/password.server'
import { EmailTakenError } from '~/server/accounts/users.server'
import { RefusedError } from '~/server/platform/refused-error.server'

// An invited account exists at once, with no password and no terms accepted; the person sets both
// from an emailed link (decision 014).

export const INVITATION_PATH = '/welcome'
export const NOTHING_TO_RESEND = 'This person has already set a password: there is no invitation to send again.'

type Invitee = { email: string; firstName: string; lastName: string }
type Actor = { id: string }

export class InvitationError extends RefusedError<409> {
  constructor(message: string) {
    super(message, 409)
  }
}

/** The account stays when the mail fails (`mailed: false`): the administrator sends it again. */
export async function inviteUser(actor: Actor, { email, firstName, lastName }: Invitee) {
  let user
  try {
    user = await prisma.user.create({
      data: { email: email.toLowerCase(), firstName, lastName },
      select: { id: true, email: true, firstName: true },
    })
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw new EmailTakenError()
    throw error
  }
  log('info', 'user.invited', { actorId: actor.id, userId: user.id })
  return { user, mailed: await mailInvitation(user) }
}

export async function resendInvitation(actor: Actor, userId: string) {
  const user = await prisma.user.findFirst({
    where: { id: userId, passwordHash: null },
    select: { id: true, email: true, firstName: true },
  })
  if (!user) throw new InvitationError(NOTHING_TO_RESEND)
  log('info', 'user.invitation_resent', { actorId: actor.id, userId: user.id })
  return { user, mailed: await mailInvitation(user) }
}

async function mailInvitation(user: { id: string; email: string; firstName: string }): Promise<boolean> {
  try {
    await sendInvitation(user)
    return true
  } catch (error) {
    log('error', 'user.invitation_mail_failed', { userId: user.id, ...errorDetails(error) })
    return false
  }
}

export async function sendInvitation(user: { id: string; email: string; firstName: string }) {
  const token = await issueLink(user.id, 'invite')
  const link = `${getEnv().appOrigin}${INVITATION_PATH}?token=${encodeURIComponent(token)}`
  await sendEmail({ to: user.email, subject: 'You are invited to Impact Narrative Studio', text: invitationText(user.firstName, link) })
}

function invitationText(firstName: string, link: string) {
  return [
    `Welcome, ${firstName}!`,
    '',
    'An administrator of Impact Narrative Studio has made you an account.',
    'To set your password and start writing impact narratives, open this link:',
    '',
    link,
    '',
    'The link will expire in 7 days and works once. If it has expired, ask your administrator for a new one.',
    'If you did not expect this email, you can ignore it.',
    '',
    'Impact Narrative Studio',
  ].join('\n')
}

export function findInvitation(token: string) {
  return findLinkUser(token, 'invite')
}

/** The Terms acceptance and marketing consent are recorded now, as the person gives them. */
export async function acceptInvitation(token: string, { password, marketingConsent }: { password: string; marketingConsent?: boolean }) {
  const { userId, redeemed } = await redeemLink(token, 'invite', async () => {
    const now = new Date()
    return { passwordHash: await hashPassword(password), termsAcceptedAt: now, marketingConsentAt: marketingConsent ? now : null }
  })
  if (userId) log(redeemed ? 'info' : 'warn', redeemed ? 'auth.invitation_accepted' : 'auth.invitation_rejected', { userId })
  return redeemed ? userId : null
}
