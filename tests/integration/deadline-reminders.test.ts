import { prisma } from '~/server/platform/db.server'
import { action as createApi } from '~/routes/api/narratives'
import { action as changeApi } from '~/routes/api/narrative'
import { sendDeadlineReminders } from '~/server/accounts/deadline-reminders.server'
import { createFunder } from '~/server/funders/funders.server'
import { getEnv } from '~/server/platform/env.server'
import { resetDatabase } from '../setup/db'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, jsonRequest } from '../setup/requests'
import { makeApiUser, PASSWORD } from '../setup/users'
import { action as accountAction, loader as accountLoader } from '~/routes/app/account'
import { action as loginAction } from '~/routes/public/login'

// Reminders mailed 14 and 3 days before an application's deadline while it is not submitted: each once,
// one mail a person a day at most.

beforeEach(resetDatabase)

const { selectedTone: _tone, ...FIELDS } = FULL_INPUT
const DEADLINE = '2027-03-13'
const DAY_MS = 86_400_000

/** Morning (UTC) of the day `days` before the deadline. */
const daysBefore = (days: number) => new Date(Date.parse(`${DEADLINE}T08:00:00.000Z`) - days * DAY_MS)

type Person = Awaited<ReturnType<typeof makeApiUser>>

/** The person's application to `funder`, whose call closes on `deadline`, written at `writtenAt`. */
async function applicationOf(person: Person, funder: string, { deadline = DEADLINE, writtenAt = daysBefore(40) } = {}) {
  const brief = await createFunder(person.user, { name: funder, callText: 'Our priorities.', deadline })
  const res = await call(
    createApi,
    jsonRequest(
      '/api/narrative',
      { ...FIELDS, tone: 'professional', generatedNarrative: 'Served 38,000 people.', funderId: brief.id },
      { token: person.token },
    ),
  )
  const id = res.body.data.id as string
  await prisma.narrative.update({ where: { id }, data: { createdAt: writtenAt } })
  return id
}

/** A new person's application to a call closing on DEADLINE, written `writtenDaysBefore` days before it. */
async function application({ writtenDaysBefore = 40, stage }: { writtenDaysBefore?: number; stage?: string } = {}) {
  const person = await makeApiUser()
  const id = await applicationOf(person, 'Lane County Community Foundation', { writtenAt: daysBefore(writtenDaysBefore) })
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
  // Written on the morning of its fourteen-day mark, before the look of that day: it was there that day.
  const sameDay = await application({ writtenDaysBefore: 14 })
  expect(await sendDeadlineReminders(daysBefore(14))).toBe(1)
  expect((await waitForMails(sameDay.user.email, 1))[0].subject).toMatch(/due in 14 days$/)
  // The server was down from before the fourteen-day mark: back two days before, it sends the three-day one alone.
  const missed = await application()
  expect(await sendDeadlineReminders(daysBefore(2))).toBe(3)
  for (const person of [late, missed]) {
    const mails = await waitForMails(person.user.email, 1)
    expect(mails.at(-1)!.subject).toBe('Lane County Community Foundation: the application is due in 2 days')
  }
  expect(await sendDeadlineReminders(daysBefore(1))).toBe(0)
  expect(mailsTo(missed.user.email)).toHaveLength(1)
})

it("sends a person one mail for the day's reminders, and what falls due later that day the next day", async () => {
  const person = await makeApiUser()
  const first = await applicationOf(person, 'Lane County Community Foundation')
  const second = await applicationOf(person, 'River Valley Trust')
  expect(await sendDeadlineReminders(daysBefore(14))).toBe(1)
  const [digest] = await waitForMails(person.user.email, 1)
  expect(digest.subject).toBe('2 applications are due soon')
  expect(digest.text).toContain('to Lane County Community Foundation is due in 14 days')
  expect(digest.text).toContain('to River Valley Trust is due in 14 days')
  for (const id of [first, second]) expect(digest.text).toContain(`/admin/narratives/${id}`)
  expect(digest.text).toContain(`To stop every deadline reminder: ${getEnv().appOrigin}/account#reminders-title`)
  // Written later that day with its deadline three days off: it waits for tomorrow's mail.
  await applicationOf(person, 'Late Call Fund', { deadline: '2027-03-02', writtenAt: daysBefore(14) })
  expect(await sendDeadlineReminders(new Date(daysBefore(14).getTime() + 6 * 3_600_000))).toBe(0)
  expect(await sendDeadlineReminders(daysBefore(13))).toBe(1)
  expect((await waitForMails(person.user.email, 2))[1].subject).toBe('Late Call Fund: the application is due in 2 days')
})

it('mails no one who turned the reminders off on the account page, and again once turned back on', async () => {
  const { user } = await application()
  const cookie = cookiesFrom((await call(loginAction, formRequest('/login', { email: user.email, password: PASSWORD }))).headers)
  const off = await call(accountAction, formRequest('/account', { intent: 'reminders' }, { cookie }))
  expect(off.status).toBe(302)
  expect((await call(accountLoader, getRequest('/account', { cookie }))).body.remindersWanted).toBe(false)
  expect(await sendDeadlineReminders(daysBefore(14))).toBe(0)
  await call(accountAction, formRequest('/account', { intent: 'reminders', deadlineReminders: 'on' }, { cookie }))
  expect(await sendDeadlineReminders(daysBefore(14))).toBe(1)
  await waitForMails(user.email, 1)
})

it('gives its claim back when the mail cannot go, and sends it at the next look', async () => {
  const { user } = await application()
  // An address no mail relay takes: the send fails.
  await prisma.user.update({ where: { id: user.id }, data: { email: '' } })
  expect(await sendDeadlineReminders(daysBefore(14))).toBe(0)
  expect(await prisma.deadlineReminder.count()).toBe(0)
  await prisma.user.update({ where: { id: user.id }, data: { email: user.email } })
  expect(await sendDeadlineReminders(daysBefore(14))).toBe(1)
  await waitForMails(user.email, 1)
  expect(await prisma.deadlineReminder.findMany({ select: { daysBefore: true, sentAt: true } })).toEqual([
    { daysBefore: 14, sentAt: expect.any(Date) },
  ])
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
