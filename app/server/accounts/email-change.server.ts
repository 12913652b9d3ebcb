import { prisma, Prisma } from '~/server/platform/db.server'
import { getEnv } from '~/server/platform/env.server'
import { log } from '~/server/platform/logger.server'
import { findLinkUser, issueLink, LINK_TTL_MS, redeemLink } from '~/server/accounts/account-links.server'
import { mailAfterAnswering, sendEmail } from '~/server/accounts/email.server'
import { enforceRateLimit } from '~/server/edge/limits.server'
import { AccountError, confirmPassword, mailNotice, notice } from '~/server/accounts/account.server'

// The address changes only when a link sent to it is opened by the account it was asked for (decision 022).

export const EMAIL_CHANGE_PATH = '/account/email'
export const SAME_EMAIL = 'This is already your email address.'
export const EMAIL_CHANGE_TTL_HOURS = LINK_TTL_MS.email / (60 * 60 * 1000)

type Requester = { id: string; email: string; firstName: string }

/** The mail goes after answering, so the answer is the same, in the same time, whether or not the new address has an account. */
export async function requestEmailChange(user: Requester, { email, currentPassword }: { email: string; currentPassword: string }) {
  if (email === user.email) throw new AccountError(SAME_EMAIL, 400, 'email')
  await enforceRateLimit('emailChange', user.id)
  await confirmPassword(user, currentPassword)
  log('info', 'account.email_change_requested', { userId: user.id })
  mailAfterAnswering('account.email_change_mail_failed', () => mailEmailChange(user, email))
}

async function mailEmailChange(user: Requester, email: string) {
  const taken = await prisma.user.findUnique({ where: { email }, select: { id: true } })
  if (taken) {
    log('info', 'account.email_change_taken', { userId: user.id })
    await sendEmail({ to: email, subject: 'Your address was given for an Impact Narrative Studio account', text: takenText() })
  } else {
    const token = await issueLink(user.id, 'email', email)
    const link = `${getEnv().appOrigin}${EMAIL_CHANGE_PATH}?token=${encodeURIComponent(token)}`
    await sendEmail({ to: email, subject: 'Confirm your new Impact Narrative Studio email', text: confirmText(link) })
  }
  await sendEmail({
    to: user.email,
    subject: 'A change of your Impact Narrative Studio email was requested',
    text: notice(user.firstName, [
      `Someone signed in to your account asked to change its email to ${email}.`,
      'Nothing changes until a link sent to that address is opened.',
      '',
      'If you did not ask for this, change your password now on your Account page, and tell your administrator.',
    ]),
  })
}

// Nothing the requester typed (not even their name) goes to an address that has not been confirmed.
function confirmText(link: string) {
  return notice('', [
    'To make this address the email of your Impact Narrative Studio account, sign in and open this link:',
    '',
    link,
    '',
    `The link will expire in ${EMAIL_CHANGE_TTL_HOURS} hours and works once.`,
    'If you did not ask for this, you can ignore this email: nothing changes.',
  ])
}

// The holder of an address that has an account learns it; the person who asked learns nothing.
function takenText() {
  return [
    'Hello,',
    '',
    'Someone asked to move an Impact Narrative Studio account to this email address. This address',
    'already belongs to an account, so nothing was changed.',
    '',
    'If it was you, sign in to that account instead, or use another address. Otherwise you can ignore this email.',
    '',
    'Impact Narrative Studio',
  ].join('\n')
}

export async function findEmailChange(user: { id: string }, token: string): Promise<string | null> {
  const link = await findLinkUser(token, 'email')
  return link && link.id === user.id ? link.newEmail : null
}

export type EmailChangeOutcome = { status: 'changed'; email: string } | { status: 'invalid' } | { status: 'taken' }

/** Unused reset links went to the old address, so they are voided. */
export async function confirmEmailChange(user: Requester, token: string): Promise<EmailChangeOutcome> {
  let outcome
  try {
    outcome = await redeemLink(
      token,
      'email',
      async (link) => ({ email: link.newEmail!, passwordResets: { deleteMany: { usedAt: null, purpose: { in: ['reset', 'invite'] } } } }),
      { forUser: user.id },
    )
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) throw error
    log('warn', 'account.email_change_rejected', { userId: user.id, reason: 'taken' })
    return { status: 'taken' }
  }
  if (!outcome.redeemed) {
    log('warn', 'account.email_change_rejected', { userId: user.id, reason: 'invalid' })
    return { status: 'invalid' }
  }
  const { email } = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { email: true } })
  log('info', 'account.email_changed', { userId: user.id })
  mailNotice(user, 'Your Impact Narrative Studio email was changed', [
    `The email of your Impact Narrative Studio account is now ${email}. Sign in with it from now on.`,
    'This address will get no more mail about the account.',
    '',
    'If you did not do this, tell your administrator.',
  ])
  return { status: 'changed', email }
}

export function emailLinkSent(email: string) {
  return `We sent a link to ${email}. Your email changes when you open it.`
}

export const EMAIL_TAKEN_NOW = 'This address now belongs to another account, so your email was not changed.'
export const EMAIL_LINK_INVALID = 'This confirmation link has expired or is invalid.'
