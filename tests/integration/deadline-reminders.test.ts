import { prisma } from '~/server/platform/db.server'
import { action as createApi } from '~/routes/api/narratives'
import { action as changeApi } from '~/routes/api/narrative'
import { sendDeadlineReminders } from '~/server/accounts/deadline-reminders.server'
import { createFunder } from '~/server/funders/funders.server'
import { getEnv } from '~/server/platform/env.server'
import { resetDatabase } from '../setup/db'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, jsonRequest } from '../setup/requests'
import { makeApiUser } from '../setup/users'

// Reminders mailed 14 and 3 days before an application's deadline while it is not submitted, each once.

beforeEach(resetDatabase)

const { selectedTone: _tone, ...FIELDS } = FULL_INPUT
const DEADLINE = '2027-03-13'
const DAY_MS = 86_400_000

/** Morning (UTC) of the day `days` before the deadline. */
const daysBefore = (days: number) => new Date(Date.parse(`${DEADLINE}T08:00:00.000Z`) - days * DAY_MS)

/** A person's application to a call closing on DEADLINE, written `writtenDaysBefore` days before it. */
async function application({ writtenDaysBefore = 40, stage }: { writtenDaysBefore?: number; stage?: string } = {}) {
  const person = await makeApiUser()
  const brief = await createFunder(person.user, {
    name: 'Lane County Community Foundation',
    callText: 'Our priorities.',
    deadline: DEADLINE,
  })
  const res = await call(
    createApi,
    jsonRequest(
      '/api/narrative',
      { ...FIELDS, tone: 'professional', generatedNarrative: 'Served 38,000 people.', funderId: brief.id },
      { token: person.token },
    ),
  )
  const id = res.body.data.id as string
  await prisma.narrative.update({ where: { id }, data: { createdAt: daysBefore(writtenDaysBefore) } })
  if (stage) await call(changeApi, jsonRequest(`/api/narrative/${id}`, { stage }, { method: 'PATCH', token: person.token }), { id })
  return { ...person, id }
}

const mailsTo = (email: string) => globalThis.smtpSink.messages.filter((mail) => mail.to.includes(email))

it('mails the owner 14 days before and 3 days before, each once, with the funder, the day and the way to the page', async () => {
  const { user, id } = await application()
  expect(await sendDeadlineReminders(daysBefore(15))).toBe(0)
  expect(await sendDeadlineReminders(daysBefore(14))).toBe(1)
  const [first] = await waitForMails(user.email, 1)
  expect(first.subject).toBe('Lane County Community Foundation: the application is due in 14 days')
  expect(first.text).toContain(`Hello ${user.firstName},`)
  expect(first.text).toContain(
    `The application of ${FIELDS.company} to Lane County Community Foundation is due in 14 days, on Mar 13, 2027.`,
  )
  expect(first.text).toContain('It is marked Drafting.')
  expect(first.text).toContain(`Open it: ${getEnv().appOrigin}/admin/narratives/${id}`)
  // Looked at again the same day, and the days after: nothing more until three days before.
  for (const days of [14, 10, 4]) expect(await sendDeadlineReminders(daysBefore(days))).toBe(0)
  expect(await sendDeadlineReminders(daysBefore(3))).toBe(1)
  const [, second] = await waitForMails(user.email, 2)
  expect(second.subject).toBe('Lane County Community Foundation: the application is due in 3 days')
  for (const days of [3, 1, 0, -1]) expect(await sendDeadlineReminders(daysBefore(days))).toBe(0)
  expect(mailsTo(user.email)).toHaveLength(2)
})

it('sends a reminder once when several replicas look at the same moment', async () => {
  const { user } = await application()
  const looks = await Promise.all([1, 2, 3, 4].map(() => sendDeadlineReminders(daysBefore(14))))
  expect(looks.reduce((sum, sent) => sum + sent, 0)).toBe(1)
  await waitForMails(user.email, 1)
  expect(mailsTo(user.email)).toHaveLength(1)
})

it('reminds of nothing submitted, awarded or declined, nor a disabled account, nor a deadline passed', async () => {
  const submitted = await application({ stage: 'submitted' })
  const awarded = await application({ stage: 'awarded' })
  const declined = await application({ stage: 'declined' })
  const disabled = await application()
  await prisma.user.update({ where: { id: disabled.user.id }, data: { disabledAt: new Date() } })
  const inReview = await application({ stage: 'in_review' })
  expect(await sendDeadlineReminders(daysBefore(14))).toBe(1)
  const [mail] = await waitForMails(inReview.user.email, 1)
  expect(mail.text).toContain('It is marked In review.')
  for (const person of [submitted, awarded, declined, disabled]) expect(mailsTo(person.user.email)).toEqual([])
  expect(await sendDeadlineReminders(daysBefore(-1))).toBe(0)
})

it('sends only the reminders a narrative was there for, and never the earlier one after the later', async () => {
  // Written ten days before the deadline: its first reminder is the three-day one.
  const late = await application({ writtenDaysBefore: 10 })
  expect(await sendDeadlineReminders(daysBefore(10))).toBe(0)
  // The server was down from before the fourteen-day mark: back two days before, it sends the three-day one alone.
  const missed = await application()
  expect(await sendDeadlineReminders(daysBefore(2))).toBe(2)
  for (const person of [late, missed]) {
    const [mail] = await waitForMails(person.user.email, 1)
    expect(mail.subject).toBe('Lane County Community Foundation: the application is due in 2 days')
  }
  expect(await sendDeadlineReminders(daysBefore(1))).toBe(0)
  expect(mailsTo(missed.user.email)).toHaveLength(1)
})

it('goes with its narrative', async () => {
  const { id } = await application()
  await sendDeadlineReminders(daysBefore(14))
  expect(await prisma.deadlineReminder.count({ where: { narrativeId: id } })).toBe(1)
  await prisma.narrative.delete({ where: { id } })
  expect(await prisma.deadlineReminder.count()).toBe(0)
})

/** The mails to `email`, once `count` of them arrived. */
async function waitForMails(email: string, count: number) {
  const deadline = Date.now() + 10_000
  while (mailsTo(email).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  expect(mailsTo(email)).toHaveLength(count)
  return mailsTo(email)
}
