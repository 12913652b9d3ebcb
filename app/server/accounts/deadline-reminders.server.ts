import { prisma, type Prisma } from '~/server/platform/db.server'
import { getEnv } from '~/server/platform/env.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { mailAfterAnswering, sendEmail } from '~/server/accounts/email.server'
import { formatDate } from '~/shared/dates'
import { utcDay } from '~/server/usage/quota.server'
import { stageLabel, type Stage } from '~/shared/stages'

// Deadline reminders: one mail a person a day at most, sent by the replica that claims it (docs/decisions/053).

/** The latest first: when both are due, only the latest goes. */
const DAYS_BEFORE = [3, 14] as const
const NOT_SUBMITTED: Stage[] = ['drafting', 'in_review']
const DAY_MS = 86_400_000
const LOOK_EVERY_MS = 60 * 60 * 1000
/** Narratives one look reads for each reminder, soonest deadline first; the next look reads on. */
const BATCH = 200

/** Once the server listens; each look is settled at shutdown like any mail. */
export function scheduleDeadlineReminders() {
  const look = () =>
    mailAfterAnswering('reminders.failed', async () => {
      await sendDeadlineReminders()
    })
  look()
  setInterval(look, LOOK_EVERY_MS).unref()
}

export async function sendDeadlineReminders(now = new Date()) {
  const today = utcDay(now)
  let mails = 0
  for (const [userId, reminders] of byPerson(await dueReminders(today))) {
    try {
      if (await remindPerson(userId, reminders, today)) mails += 1
    } catch (error) {
      log('error', 'reminders.not_sent', { userId, ...errorDetails(error) })
    }
  }
  return mails
}

type Reminder = { narrative: Due; daysBefore: number }

/** The reminders whose day has come, of narratives that existed on that day; the others are passed over. */
async function dueReminders(today: string) {
  const due = new Map<string, Reminder>()
  for (const daysBefore of DAYS_BEFORE) {
    for (const narrative of await dueFor(daysBefore, today)) {
      if (due.has(narrative.id)) continue
      if (existedOnTheDay(narrative, daysBefore)) due.set(narrative.id, { narrative, daysBefore })
      else await insertReminder(prisma, narrative.id, daysBefore)
    }
  }
  return [...due.values()]
}

function dueFor(daysBefore: number, today: string) {
  return prisma.narrative.findMany({
    where: {
      deadline: { gte: today, lte: dayAfter(today, daysBefore) },
      stage: { in: NOT_SUBMITTED },
      status: { not: 'generating' },
      // Those mailed today wait for tomorrow, so one person's many narratives cannot fill every look's batch.
      user: { disabledAt: null, deadlineReminders: true, OR: [{ remindedOn: null }, { remindedOn: { not: today } }] },
      reminders: { none: { daysBefore } },
    },
    orderBy: [{ deadline: 'asc' }, { id: 'asc' }],
    take: BATCH,
    select: {
      id: true,
      userId: true,
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

const dayAfter = (day: string, days: number) => utcDay(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS))

/** Written on the reminder's day or before it: one written later gets the next reminder only, never a late one. */
function existedOnTheDay({ deadline, createdAt }: Due, daysBefore: number) {
  return utcDay(createdAt) <= dayAfter(deadline!, -daysBefore)
}

function byPerson(reminders: Reminder[]) {
  const people = new Map<string, Reminder[]>()
  for (const reminder of reminders) people.set(reminder.narrative.userId, [...(people.get(reminder.narrative.userId) ?? []), reminder])
  return people
}

/**
 * Claims the person's day, then each reminder, in one transaction: the day's update locks the person's row
 * on PostgreSQL, so a second replica waits, then finds the day taken. A mail that cannot go gives both back.
 */
async function remindPerson(userId: string, reminders: Reminder[], today: string) {
  const claimed = await prisma.$transaction(async (tx) => {
    const person = await tx.user.findUnique({ where: { id: userId }, select: { remindedOn: true } })
    const { count } = await tx.user.updateMany({
      where: { id: userId, OR: [{ remindedOn: null }, { remindedOn: { not: today } }] },
      data: { remindedOn: today },
    })
    if (!count) return null
    const mine: Reminder[] = []
    for (const reminder of reminders) if (await claim(tx, reminder)) mine.push(reminder)
    return { mine, before: person?.remindedOn ?? null }
  })
  if (!claimed?.mine.length) return false
  const rows = { OR: claimed.mine.map(({ narrative, daysBefore }) => ({ narrativeId: narrative.id, daysBefore })) }
  try {
    await sendEmail(reminderEmail(claimed.mine, today))
  } catch (error) {
    await prisma.$transaction([
      prisma.deadlineReminder.deleteMany({ where: rows }),
      prisma.user.updateMany({ where: { id: userId, remindedOn: today }, data: { remindedOn: claimed.before } }),
    ])
    throw error
  }
  await prisma.deadlineReminder.updateMany({ where: rows, data: { sentAt: new Date() } })
  log('info', 'reminders.sent', { userId, narratives: claimed.mine.map(({ narrative }) => narrative.id) })
  return true
}

/** The reminder's row, and the earlier reminder's passed over with it, so it never goes after the later one. */
async function claim(tx: Prisma.TransactionClient, { narrative, daysBefore }: Reminder) {
  if (!(await insertReminder(tx, narrative.id, daysBefore))) return false
  for (const earlier of DAYS_BEFORE.filter((days) => days > daysBefore)) await insertReminder(tx, narrative.id, earlier)
  return true
}

/** A row without `sentAt`, unless one is there: false then, for another look had it first. */
async function insertReminder(db: Prisma.TransactionClient, narrativeId: string, daysBefore: number) {
  const inserted = await db.$executeRaw`
    INSERT INTO "DeadlineReminder" ("narrativeId", "daysBefore") VALUES (${narrativeId}, ${daysBefore}) ON CONFLICT DO NOTHING`
  return inserted === 1
}

export function reminderEmail(reminders: Reminder[], today: string) {
  const { appOrigin } = getEnv()
  const lines = reminders.map(({ narrative }) => {
    const daysLeft = Math.round((Date.parse(`${narrative.deadline}T00:00:00.000Z`) - Date.parse(`${today}T00:00:00.000Z`)) / DAY_MS)
    const when = daysLeft === 0 ? 'today' : daysLeft === 1 ? 'tomorrow' : `in ${daysLeft} days`
    const funder = narrative.funderName ?? 'the funder'
    return {
      subject: `${funder}: the application is due ${when}`,
      text: [
        `The application of ${narrative.company} to ${funder} is due ${when}, on ${formatDate(`${narrative.deadline}T12:00:00.000Z`, 'UTC')}. It is marked ${stageLabel(narrative.stage)}.`,
        `Open it: ${appOrigin}/admin/narratives/${encodeURIComponent(narrative.id)}`,
      ].join('\n'),
    }
  })
  return {
    to: reminders[0].narrative.user.email,
    subject: lines.length === 1 ? lines[0].subject : `${lines.length} applications are due soon`,
    text: [
      `Hello ${reminders[0].narrative.user.firstName},`,
      ...lines.flatMap((line) => ['', line.text]),
      '',
      'Once an application is submitted, set its stage to Submitted, and its reminders stop.',
      `To stop every deadline reminder: ${appOrigin}/account#reminders-title`,
      '',
      'Impact Narrative Studio',
    ].join('\n'),
  }
}

export async function remindersWanted(userId: string) {
  const { deadlineReminders } = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { deadlineReminders: true } })
  return deadlineReminders
}

export async function chooseReminders(userId: string, wanted: boolean) {
  await prisma.user.update({ where: { id: userId }, data: { deadlineReminders: wanted } })
  log('info', 'reminders.chosen', { userId, wanted })
}
