import ICAL from 'ical.js'
import { prisma } from '~/server/platform/db.server'
import { action as createApi } from '~/routes/api/narratives'
import { action as changeApi } from '~/routes/api/narrative'
import { loader as profileApi } from '~/routes/auth/profile'
import { action as renewApi } from '~/routes/auth/profile-calendar'
import { action as accountAction, loader as accountLoader } from '~/routes/app/account'
import { loader as feedLoader } from '~/routes/resources/calendar'
import { loader as listApi } from '~/routes/api/narratives'
import { loader as listPage } from '~/routes/app/narratives'
import { action as loginAction } from '~/routes/public/login'
import { createFunder } from '~/server/funders/funders.server'
import { getEnv } from '~/server/platform/env.server'
import { CALENDAR_READINGS_PER_HOUR } from '~/server/edge/limits.server'
import { resetDatabase } from '../setup/db'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, jsonRequest, routeArgs } from '../setup/requests'
import { makeApiUser, PASSWORD } from '../setup/users'

// A person's deadlines: the list narrowed to them, and the calendar at a secret address, read as a calendar
// application reads it.

beforeEach(resetDatabase)

const { selectedTone: _tone, ...FIELDS } = FULL_INPUT

type Person = Awaited<ReturnType<typeof makeApiUser>>

/** A narrative written for a brief of the person's, whose call closes on `deadline`. */
async function application(
  person: Person,
  { funder, deadline, company = FIELDS.company }: { funder: string; deadline?: string; company?: string },
) {
  const brief = await createFunder(person.user, {
    name: funder,
    callText: 'Our priorities: food security.',
    ...(deadline ? { deadline } : {}),
  })
  const res = await call(
    createApi,
    jsonRequest(
      '/api/narrative',
      {
        ...FIELDS,
        company,
        tone: 'professional',
        generatedNarrative: 'Served 38,000 people.',
        funderId: brief.id,
        amountRequested: '$25,000',
      },
      { token: person.token },
    ),
  )
  expect(res.status).toBe(201)
  return res.body.data.id as string
}

const calendarUrlOf = async (person: Person) =>
  (await call(profileApi, getRequest('/auth/profile', { token: person.token }))).body.calendarUrl as string

/** The feed at an address, as a calendar fetches it: no cookie, no token. */
async function fetchFeed(url: string) {
  const feed = new URL(url).pathname.split('/').pop()!
  return (await feedLoader(routeArgs(new Request(url), { feed }))) as Response
}

function eventsOf(text: string) {
  return new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((event) => ({
    uid: event.getFirstPropertyValue('uid'),
    summary: event.getFirstPropertyValue('summary'),
    description: event.getFirstPropertyValue('description'),
    start: event.getFirstPropertyValue('dtstart') as ICAL.Time,
  }))
}

it('gives each person an address of their own in the profile and on the account page', async () => {
  const person = await makeApiUser()
  const other = await makeApiUser()
  const url = await calendarUrlOf(person)
  // Absolute, on the instance's own origin: a calendar application has no page to resolve it against.
  expect(url.startsWith(`${getEnv().appOrigin}/resources/calendar/${person.user.id}.`)).toBe(true)
  expect(url).toMatch(/\.[A-Za-z0-9_-]{43}\.ics$/)
  expect(url).not.toBe(await calendarUrlOf(other))
  expect(await calendarUrlOf(person)).toBe(url)
  const cookie = cookiesFrom((await call(loginAction, formRequest('/login', { email: person.user.email, password: PASSWORD }))).headers)
  expect((await call(accountLoader, getRequest('/account', { cookie }))).body.calendarUrl).toBe(url)
})

it('lists one all-day event a deadline, naming the funder, with a UID that stays the same as the application moves on', async () => {
  const person = await makeApiUser()
  const lane = await application(person, { funder: 'Lane County Community Foundation', deadline: '2027-03-13' })
  const river = await application(person, { funder: 'River, Rail; and Road Trust', deadline: '2027-01-31', company: 'Valley Pantry' })
  await application(person, { funder: 'No Deadline Fund' })
  const url = await calendarUrlOf(person)

  const first = await fetchFeed(url)
  expect(first.status).toBe(200)
  expect(first.headers.get('Content-Type')).toBe('text/calendar; charset=utf-8')
  expect(first.headers.get('Cache-Control')).toBe('private, no-store')
  const text = await first.text()
  expect(text).toContain('DTSTART;VALUE=DATE:20270313')
  const events = eventsOf(text)
  // Soonest first; the narrative written for a call without a deadline has no event.
  expect(events.map(({ summary, start }) => [summary, start.isDate, start.toString()])).toEqual([
    ['Deadline: River, Rail; and Road Trust (Valley Pantry)', true, '2027-01-31'],
    ['Deadline: Lane County Community Foundation (Harvest Table Food Bank)', true, '2027-03-13'],
  ])
  expect(events[1].description).toContain('Stage: Drafting')
  expect(events[1].description).toContain('Asking: $25,000')
  expect(events[1].description).toContain(`/admin/narratives/${lane}`)

  // Submitted since: the same event, updated, never a second one.
  await call(changeApi, jsonRequest(`/api/narrative/${lane}`, { stage: 'submitted' }, { method: 'PATCH', token: person.token }), {
    id: lane,
  })
  const again = eventsOf(await (await fetchFeed(url)).text())
  expect(again.map((event) => event.uid)).toEqual(events.map((event) => event.uid))
  expect(new Set(again.map((event) => event.uid)).size).toBe(2)
  expect(again.find((event) => event.uid === events[1].uid)!.description).toContain('Stage: Submitted')
  expect(events.map((event) => event.uid)).toEqual([
    `narrative-${river}@impact-narrative-studio`,
    `narrative-${lane}@impact-narrative-studio`,
  ])
})

it("holds no one else's deadlines", async () => {
  const person = await makeApiUser()
  const other = await makeApiUser()
  await application(other, { funder: 'Foreign Orchard Trust', deadline: '2027-05-01' })
  const text = await (await fetchFeed(await calendarUrlOf(person))).text()
  expect(eventsOf(text)).toEqual([])
  expect(text).not.toContain('Foreign Orchard Trust')
})

it('answers 404 to an address that is not signed, or signed for someone else, or of a disabled account', async () => {
  const person = await makeApiUser()
  const other = await makeApiUser()
  await application(person, { funder: 'Lane County Community Foundation', deadline: '2027-03-13' })
  const url = await calendarUrlOf(person)
  const [, id, signature] = /\/([a-z0-9]+)\.([A-Za-z0-9_-]{43})\.ics$/.exec(url)!
  const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A')
  for (const wrong of [
    url.replace(signature, flipped),
    url.replace(id, other.user.id),
    url.replace('.ics', ''),
    url.replace(signature, signature.slice(0, 20)),
    url.replace(`${id}.`, '../'),
  ]) {
    const res = await fetchFeed(wrong)
    expect(res.status, wrong).toBe(404)
    expect(await res.text()).not.toContain('VCALENDAR')
  }
  await prisma.user.update({ where: { id: person.user.id }, data: { disabledAt: new Date() } })
  expect((await fetchFeed(url)).status).toBe(404)
})

it('renews the address from the API and the page: the old one answers 404, the new one the same events', async () => {
  const person = await makeApiUser()
  await application(person, { funder: 'Lane County Community Foundation', deadline: '2027-03-13' })
  const first = await calendarUrlOf(person)
  const renewed = await call(renewApi, jsonRequest('/auth/profile/calendar', {}, { token: person.token }))
  expect(renewed.status).toBe(200)
  const second = renewed.body.calendarUrl as string
  expect(second).not.toBe(first)
  expect(await calendarUrlOf(person)).toBe(second)
  expect((await fetchFeed(first)).status).toBe(404)
  expect(eventsOf(await (await fetchFeed(second)).text())).toHaveLength(1)

  const cookie = cookiesFrom((await call(loginAction, formRequest('/login', { email: person.user.email, password: PASSWORD }))).headers)
  const page = await call(accountAction, formRequest('/account', { intent: 'calendar' }, { cookie }))
  expect(page.status).toBe(302)
  expect(page.headers.get('Location')).toBe('/account')
  const third = await calendarUrlOf(person)
  expect(third).not.toBe(second)
  expect((await fetchFeed(second)).status).toBe(404)
  expect((await fetchFeed(third)).status).toBe(200)
})

it('answers 429 with Retry-After past 60 readings an hour, which no calendar needs', async () => {
  const person = await makeApiUser()
  const url = await calendarUrlOf(person)
  for (let reading = 0; reading < CALENDAR_READINGS_PER_HOUR; reading++) expect((await fetchFeed(url)).status).toBe(200)
  const refused = await fetchFeed(url)
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
})

describe('the list by deadline', () => {
  afterEach(() => vi.useRealTimers())

  it('keeps the deadlines of the next 14 days, those to come, those passed, or none, on the API and the page', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2027-03-01T15:00:00.000Z'))
    const person = await makeApiUser()
    const today = await application(person, { funder: 'Closes Today Fund', deadline: '2027-03-01' })
    const fortnight = await application(person, { funder: 'Fortnight Fund', deadline: '2027-03-15' })
    const later = await application(person, { funder: 'Later Fund', deadline: '2027-03-16' })
    const passed = await application(person, { funder: 'Passed Fund', deadline: '2027-02-28' })
    const none = await application(person, { funder: 'Open Fund' })
    const ids = async (query: string) =>
      (await call(listApi, getRequest(`/api/narrative?${query}`, { token: person.token }))).body.data
        .map((n: { id: string }) => n.id)
        .sort()
    expect(await ids('due=soon')).toEqual([today, fortnight].sort())
    expect(await ids('due=upcoming')).toEqual([today, fortnight, later].sort())
    expect(await ids('due=passed')).toEqual([passed])
    expect(await ids('due=none')).toEqual([none])
    // With the order by deadline, and with a search.
    expect(await ids('due=soon&sort=deadline')).toEqual([today, fortnight].sort())
    expect(await ids('due=upcoming&q=Later')).toEqual([later])
    const wrong = await call(listApi, getRequest('/api/narrative?due=tomorrow', { token: person.token }))
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toBe('due must be one of soon, upcoming, passed, none')

    const cookie = cookiesFrom((await call(loginAction, formRequest('/login', { email: person.user.email, password: PASSWORD }))).headers)
    const page = await call(listPage, getRequest('/admin/narratives?due=passed', { cookie }))
    expect(page.body.filters).toEqual({ due: 'passed' })
    expect(page.body.narratives.map((row: { id: string }) => row.id)).toEqual([passed])
    expect((await call(listPage, getRequest('/admin/narratives?due=tomorrow', { cookie }))).body.filters).toEqual({})
  })
})
