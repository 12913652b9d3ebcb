import fs from 'node:fs/promises'
import path from 'node:path'
import nodemailer, { type Mail } from 'nodemailer'
import { getEnv, outboxOf } from '~/server/platform/env.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { getRequestContext } from '~/server/platform/request-context.server'

export type Email = { to: string; subject: string; text: string }

let transport: Mail | undefined

function getTransport() {
  transport ??= nodemailer.createTransport(getEnv().SMTP_URL)
  return transport
}

export async function sendEmail(email: Email) {
  const env = getEnv()
  if (env.SMTP_URL) {
    await getTransport().sendMail({ from: env.MAIL_FROM, ...email })
    log('info', 'email.sent', { subject: email.subject })
    return
  }
  const file = await writeToOutbox(env.dataDir, email)
  log('info', 'email.outbox', { subject: email.subject, file })
}

async function writeToOutbox(dataDir: string, email: Email) {
  const outbox = outboxOf(dataDir)
  await fs.mkdir(outbox, { recursive: true, mode: 0o700 })
  const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.hrtime.bigint()}.txt`)
  const body = `To: ${email.to}\nSubject: ${email.subject}\n\n${email.text}\n`
  await fs.writeFile(file, body, { mode: 0o600 })
  return file
}

export function warnIfNoMailer() {
  const env = getEnv()
  if (!env.SMTP_URL) {
    const outbox = outboxOf(env.dataDir)
    log('warn', 'email.no_smtp', {
      message: `SMTP_URL is not set: emails (password resets, invitations, deadline reminders) are written to ${outbox}/ instead of being sent.`,
      outbox,
    })
  }
}

const pending = new Set<Promise<void>>()

/** After the answer, so the answer neither waits for nor reveals the mail or its failure (logged as `event`). */
export function mailAfterAnswering(event: string, task: () => Promise<void>) {
  const afterAnswer = getRequestContext()?.afterAnswer ?? setImmediate
  const job: Promise<void> = new Promise<void>((resolve) => afterAnswer(() => resolve()))
    .then(task)
    .catch((error) => log('error', event, errorDetails(error)))
    .finally(() => pending.delete(job))
  pending.add(job)
}

/** At shutdown, so no mail is cut off. */
export async function settlePendingMail() {
  while (pending.size) await Promise.all(pending)
}
