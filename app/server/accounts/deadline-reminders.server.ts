import { prisma, Prisma } from '~/server/platform/db.server'
import { getEnv } from '~/server/platform/env.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { sendEmail } from '~/server/accounts/email.server'
import { formatDate } from '~/shared/dates'
import { stageLabel, type Stage } from '~/shared/stages'

// Reminders of an application's deadline, 14 and 3 days before it, to its owner, while it is not yet
// submitted (docs/decisions/053). Every replica looks; the first to claim a reminder's row sends it.

/** The reminders, the latest first: when both are due, only the latest goes. */
const DAYS_BEFORE = [3, 14] as const
const NOT_SUBMITTED: Stage[] = ['drafting', 'in_review']
const DAY_MS = 86_400_000
const LOOK_EVERY_MS = 60 * 60 * 1000
/** What one look sends at most; the next look, an hour later, sends the rest. */
const BATCH = 200

export function scheduleDeadlineReminders() {
  const look = () => sendDeadlineReminders().catch((error) => log('error', 'reminders.failed', errorDetails(error)))
  void look()
  setInterval(look, LOOK_EVERY_MS).unref()
}

/**
 * Sends each reminder that is due and not yet claimed: its day has come, the deadline has not passed,
 * and the narrative already existed on that day. Returns how many went.
 */
export async function sendDeadlineReminders(now = new Date()) {
  const today = now.toISOString().slice(0, 10)
  let sent = 0
  for (const daysBefore of DAYS_BEFORE) {
    for (const narrative of await dueFor(daysBefore, today)) {
      if (!existedOnTheDay(narrative, daysBefore)) await passOver(narrative.id, daysBefore)
      else if ((await claim(narrative.id, daysBefore)) && (await remind(narrative, daysBefore, today))) sent += 1
    }
  }
  return sent
}

function dueFor(daysBefore: number, today: string) {
  const lastDay = new Date(Date.parse(`${today}T00:00:00.000Z`) + daysBefore * DAY_MS).toISOString().slice(0, 10)
  return prisma.narrative.findMany({
    where: {
      deadline: { gte: today, lte: lastDay },
      stage: { in: NOT_SUBMITTED },
      status: { not: 'generating' },
      user: { disabledAt: null },
      reminders: { none: { daysBefore } },
    },
    orderBy: [{ deadline: 'asc' }, { id: 'asc' }],
    take: BATCH,
    select: {
      id: true,
      company: true,
      funderName: true,
      deadline: true,
      stage: true,
      createdAt: true,
      user: { select: { email: true, firstName: true } },
    },
  })
}

type Due = Awaited<ReturnType<typeof dueFor>>[number]

/** A narrative written after a reminder's day gets the next reminder only, never a late one. */
function existedOnTheDay({ deadline, createdAt }: Due, daysBefore: number) {
  return createdAt.getTime() <= Date.parse(`${deadline}T00:00:00.000Z`) - daysBefore * DAY_MS
}

/** The row is the claim: its primary key lets one replica have it. The earlier reminder is passed over with it. */
async function claim(narrativeId: string, daysBefore: number) {
  if (!(await insertReminder(narrativeId, daysBefore, new Date()))) return false
  for (const earlier of DAYS_BEFORE.filter((days) => days > daysBefore)) await passOver(narrativeId, earlier)
  return true
}

/** Never to be sent: a row without `sentAt`, so no look finds it again. */
async function passOver(narrativeId: string, daysBefore: number) {
  await insertReminder(narrativeId, daysBefore, null)
}

/**
 * False when the row is there already (another look, here or on another replica, had it first) or the
 * narrative was deleted since it was read.
 */
async function insertReminder(narrativeId: string, daysBefore: number, sentAt: Date | null) {
  try {
    await prisma.deadlineReminder.create({ data: { narrativeId, daysBefore, sentAt } })
    return true
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && ['P2002', 'P2003'].includes(error.code)) return false
    throw error
  }
}

/** Sends the mail; when it cannot go, the claim is given back, so the next look tries again. */
async function remind(narrative: Due, daysBefore: number, today: string) {
  try {
    await sendEmail(reminderEmail(narrative, today))
    log('info', 'reminders.sent', { narrativeId: narrative.id, daysBefore })
    return true
  } catch (error) {
    await prisma.deadlineReminder.deleteMany({ where: { narrativeId: narrative.id, daysBefore } })
    log('error', 'reminders.not_sent', { narrativeId: narrative.id, daysBefore, ...errorDetails(error) })
    return false
  }
}

export function reminderEmail(narrative: Due, today: string) {
  const daysLeft = Math.round((Date.parse(`${narrative.deadline}T00:00:00.000Z`) - Date.parse(`${today}T00:00:00.000Z`)) / DAY_MS)
  const funder = narrative.funderName ?? 'the funder'
  const when = daysLeft === 0 ? 'today' : daysLeft === 1 ? 'tomorrow' : `in ${daysLeft} days`
  const day = formatDate(`${narrative.deadline}T12:00:00.000Z`, 'UTC')
  const page = `${getEnv().appOrigin}/admin/narratives/${encodeURIComponent(narrative.id)}`
  return {
    to: narrative.user.email,
    subject: `${funder}: the application is due ${when}`,
    text: [
      `Hello ${narrative.user.firstName},`,
      '',
      `The application of ${narrative.company} to ${funder} is due ${when}, on ${day}. It is marked ${stageLabel(narrative.stage)}.`,
      '',
      `Open it: ${page}`,
      '',
      'Once it is submitted, set its stage to Submitted, and these reminders stop.',
      '',
      'Impact Narrative Studio',
    ].join('\n'),
  }
}
