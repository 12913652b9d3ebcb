import { prisma } from '~/server/platform/db.server'
import { action as generateApi } from '~/routes/api/generate'
import { loader as generationEvents } from '~/routes/resources/generation-events'
import { loader as docxLoader } from '~/routes/resources/narrative-download'
import { action as dashboardAction } from '~/routes/app/dashboard'
import { action as loginAction } from '~/routes/public/login'
import { startGeneration, stopGeneration, waitForGeneration } from '~/server/generation/job/jobs.server'
import { SESSION_ENDED } from '~/server/generation/follow/event-stream.server'
import { readServerSentEvents } from '~/server/generation/engines/model-events.server'
import { changePassword } from '~/server/accounts/account.server'
import { updateUserControls } from '~/server/accounts/user-controls.server'
import { authSessionStorage } from '~/server/accounts/session.server'
import { action as logoutAction } from '~/routes/logout'
import { getRemainingQuota, utcDay } from '~/server/usage/quota.server'
import { DEFAULT_TEXT, splitPieces, type FakeOpenAI } from '../fixtures/fake-openai'
import { resetDatabase } from '../setup/db'
import { useFakeModel, useOfflineDrafter } from '../setup/model'
import { asFormFields, FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, jsonRequest, routeArgs } from '../setup/requests'
import { readEvents, textOf } from '../setup/sse'
import { makeApiUser, makeUser, PASSWORD } from '../setup/users'

let fake: FakeOpenAI
beforeAll(async () => {
  fake = await useFakeModel({ timeoutMs: 1000 })
})
afterAll(async () => {
  useOfflineDrafter()
  await fake.close()
})
beforeEach(resetDatabase)

async function signIn(email: string) {
  return cookiesFrom((await call(loginAction, formRequest('/login', { email, password: PASSWORD }))).headers)
}

function eventsRequest(id: string, { cookie, lastEventId }: { cookie: string; lastEventId?: number }) {
  const headers = new Headers({ Cookie: cookie, Accept: 'text/event-stream' })
  if (lastEventId) headers.set('Last-Event-ID', String(lastEventId))
  return new Request(`https://narratives.example.org/resources/generations/${id}`, { headers })
}

async function api(body: unknown, token: string) {
  return generateApi(routeArgs(jsonRequest('/api/narrative/generate', body, { token }), {}))
}

describe('POST /api/narrative/generate', () => {
  it('streams start, numbered deltas and done, and saves the narrative', async () => {
    const { user, token } = await makeApiUser()
    const response = await api(FULL_INPUT, token)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/event-stream/)
    const events = await readEvents(response)
    expect(events[0]).toMatchObject({ event: 'start', data: { engine: 'gpt-4' } })
    const id = events[0].data.id
    // Event ids count pieces; pieces arriving close together share one event, under the last one's id.
    const ids = events.filter((e) => e.event === 'delta').map((e) => Number(e.id))
    expect(ids[0]).toBe(1)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.at(-1)).toBe(fake.requests.length && splitPieces(DEFAULT_TEXT).length)
    expect(textOf(events)).toBe(DEFAULT_TEXT)
    expect(events.at(-1)).toEqual({ event: 'done', id: undefined, data: { id, status: 'complete', text: DEFAULT_TEXT } })
    await waitForGeneration(id)
    expect(await prisma.narrative.findUniqueOrThrow({ where: { id } })).toMatchObject({ userId: user.id, status: 'complete' })
  })

  it('answers invalid input with 400 and spends nothing', async () => {
    const { user, token } = await makeApiUser()
    const response = await api({ ...FULL_INPUT, company: '', contactEmail1: 'nope' }, token)
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.error).toBe('Organization Name is required')
    expect(body.details).toHaveProperty('company')
    expect(body.details).toHaveProperty('contactEmail1')
    expect(await getRemainingQuota(user.id)).toBe(10)
    expect(await prisma.narrative.count()).toBe(0)
  })

  it('answers 429 when no quota is left and 401 without a token', async () => {
    const { user, token } = await makeApiUser()
    await prisma.user.update({ where: { id: user.id }, data: { quotaDay: utcDay(), quotaUsed: 10 } })
    const response = await api(FULL_INPUT, token)
    expect(response.status).toBe(429)
    expect((await response.json()).error).toMatch(/daily limit/)
    expect((await api(FULL_INPUT, 'bad-token')).status).toBe(401)
  })

  it('sends an error event and refunds when the model fails', async () => {
    const { user, token } = await makeApiUser()
    const events = await readEvents(await api({ ...FULL_INPUT, missionStatement: 'Help. [[fake:500]]' }, token))
    expect(events.at(-1)).toMatchObject({
      event: 'error',
      data: { error: 'An error occurred while generating the narrative. Please try again.' },
    })
    expect(await getRemainingQuota(user.id)).toBe(10)
  })

  it('keeps generating when the client hangs up', async () => {
    const { token } = await makeApiUser()
    const events = await readEvents(await api(FULL_INPUT, token), (e) => e.event === 'delta')
    const id = events[0].data.id
    await waitForGeneration(id)
    expect(await prisma.narrative.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'complete',
      generatedNarrative: DEFAULT_TEXT,
    })
  })
})

describe('the page stream (GET /resources/generations/:id)', () => {
  async function startFromDashboard(cookie: string, marker = '') {
    const fields = {
      ...asFormFields({ ...FULL_INPUT, missionStatement: `${FULL_INPUT.missionStatement} ${marker}` }),
      intent: 'generate',
      mode: 'stream',
    }
    const res = await call(dashboardAction, formRequest('/dashboard', fields, { cookie }))
    // The page follows the generation the URL names.
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('Location')!, 'https://narratives.example.org')
    expect(location.pathname).toBe('/dashboard')
    return location.searchParams.get('narrative')!
  }

  it('replays from the start, or only after Last-Event-ID, and never bills', async () => {
    const user = await makeUser({ email: 'owner@example.org' })
    const cookie = await signIn('owner@example.org')
    const id = await startFromDashboard(cookie, '[[fake:delay=50]]')
    expect(await getRemainingQuota(user.id)).toBe(9)

    const response = (await generationEvents(routeArgs(eventsRequest(id, { cookie }), { id }))) as Response
    const all = await readEvents(response)
    expect(all.at(-1)?.data.text).toBe(DEFAULT_TEXT)

    const resumed = (await generationEvents(routeArgs(eventsRequest(id, { cookie, lastEventId: 10 }), { id }))) as Response
    const later = await readEvents(resumed)
    // A finished generation answers with its full text in `done` and closes.
    expect(later.map((e) => e.event)).toEqual(['start', 'done'])
    expect(later[1].data).toMatchObject({ status: 'complete', text: DEFAULT_TEXT })
    expect(await getRemainingQuota(user.id)).toBe(9)
    expect(await prisma.narrative.count()).toBe(1)
  })

  it('resumes a running generation after the last piece the client saw', async () => {
    await makeUser({ email: 'owner@example.org' })
    const cookie = await signIn('owner@example.org')
    const id = await startFromDashboard(cookie, '[[fake:slow]]')
    const firstConnection = (await generationEvents(routeArgs(eventsRequest(id, { cookie }), { id }))) as Response
    const seen = await readEvents(firstConnection, (e) => e.event === 'delta' && Number(e.id) >= 3)
    const lastId = Number(seen.at(-1)!.id)
    const resumed = (await generationEvents(routeArgs(eventsRequest(id, { cookie, lastEventId: lastId }), { id }))) as Response
    const next = await readEvents(resumed, (e) => e.event === 'delta')
    expect(Number(next.at(-1)!.id)).toBeGreaterThan(lastId)
    expect(textOf(seen) + textOf(next)).toBe(DEFAULT_TEXT.slice(0, (textOf(seen) + textOf(next)).length))
    await stopGeneration(id, (await prisma.narrative.findUniqueOrThrow({ where: { id } })).userId)
    await waitForGeneration(id)
  })

  it('is 404 for another user and for an unknown id', async () => {
    await makeUser({ email: 'owner@example.org' })
    await makeUser({ email: 'other@example.org' })
    const id = await startFromDashboard(await signIn('owner@example.org'))
    const other = await signIn('other@example.org')
    expect((await call(generationEvents, eventsRequest(id, { cookie: other }), { id })).status).toBe(404)
    expect((await call(generationEvents, eventsRequest('nope', { cookie: other }), { id: 'nope' })).status).toBe(404)
    expect((await call(docxLoader, eventsRequest(id, { cookie: other }), { id })).status).toBe(404)
    await waitForGeneration(id)
  })
})

describe('the dashboard action', () => {
  it('refuses an unknown intent with 400', async () => {
    await makeUser({ email: 'owner@example.org' })
    const cookie = await signIn('owner@example.org')
    expect((await call(dashboardAction, formRequest('/dashboard', { intent: 'explode' }, { cookie }))).status).toBe(400)
  })

  it('without JavaScript waits for the narrative and redirects to it', async () => {
    await makeUser({ email: 'owner@example.org' })
    const cookie = await signIn('owner@example.org')
    const res = await call(dashboardAction, formRequest('/dashboard', { ...asFormFields(), intent: 'generate' }, { cookie }))
    expect(res.status).toBe(302)
    const id = res.headers.get('Location')!.replace('/admin/narratives/', '')
    expect(await prisma.narrative.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'complete',
      generatedNarrative: DEFAULT_TEXT,
    })
  })

  it('downloads the narrative as a Word file named after the organisation', async () => {
    await makeUser({ email: 'owner@example.org' })
    const cookie = await signIn('owner@example.org')
    const res = await call(dashboardAction, formRequest('/dashboard', { ...asFormFields(), intent: 'generate' }, { cookie }))
    const id = res.headers.get('Location')!.replace('/admin/narratives/', '')
    const download = (await docxLoader(routeArgs(eventsRequest(id, { cookie }), { id }))) as Response
    expect(download.headers.get('Content-Type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
    expect(download.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="Harvest-Table-Food-Bank-Impact-Narrative-[A-Za-z]+-\d\d?-\d{4}\.docx"$/,
    )
    const bytes = new Uint8Array(await download.arrayBuffer())
    expect([...bytes.slice(0, 2)]).toEqual([0x50, 0x4b]) // a zip, as every .docx is
  })
})

describe('a stream belongs to the session that opened it', () => {
  const SLOW = { ...FULL_INPUT, missionStatement: `${FULL_INPUT.missionStatement} [[fake:slow]]` }

  /** Starts a slow generation for `userId` and opens its event stream under `cookie`; the events read so far, and how the stream ended. */
  async function follow(id: string, cookie: string) {
    const response = (await generationEvents(routeArgs(eventsRequest(id, { cookie }), { id }))) as Response
    expect(response.status).toBe(200)
    const events: { event: string; data: unknown }[] = []
    const ended = (async () => {
      for await (const event of readServerSentEventsOf(response)) events.push(event)
    })()
    await expect.poll(() => events.some((event) => event.event === 'delta'), { timeout: 5000 }).toBe(true)
    return { events, ended }
  }

  async function startSlow(userId: string) {
    const { id } = await startGeneration(userId, SLOW)
    return id
  }

  afterEach(async () => {
    for (const narrative of await prisma.narrative.findMany({ where: { status: 'generating' } })) {
      await stopGeneration(narrative.id, narrative.userId)
      await waitForGeneration(narrative.id)
    }
  })

  it('ends at sign-out with a message, while the generation goes on', async () => {
    const user = await makeUser()
    const cookie = await signIn(user.email)
    const id = await startSlow(user.id)
    const { events, ended } = await follow(id, cookie)
    await call(logoutAction, new Request('https://narratives.example.org/logout', { method: 'POST', headers: { Cookie: cookie } }))
    await ended
    expect(events.at(-1)).toEqual({ event: 'error', data: { error: SESSION_ENDED } })
    expect((await prisma.narrative.findUniqueOrThrow({ where: { id } })).status).toBe('generating')
  })

  it('ends for the other sessions when a password change signs them out, not for the one that changed it', async () => {
    const user = await makeUser()
    const [here, elsewhere] = [await signIn(user.email), await signIn(user.email)]
    const id = await startSlow(user.id)
    const kept = await follow(id, here)
    const other = await follow(id, elsewhere)
    const keepSession = (await authSessionStorage.getSession(here)).get('sessionId')!
    await changePassword(user, { currentPassword: PASSWORD, newPassword: 'another good password', keepSession })
    await other.ended
    expect(other.events.at(-1)).toEqual({ event: 'error', data: { error: SESSION_ENDED } })
    await stopGeneration(id, user.id)
    await kept.ended
    expect(kept.events.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } })
  })

  it("ends an administrator's stream of someone else's generation when they are no longer an administrator", async () => {
    const [first, admin, member] = [await makeUser(), await makeUser(), await makeUser()]
    await prisma.user.updateMany({ where: { id: { in: [first.id, admin.id] } }, data: { isAdmin: true } })
    const adminCookie = await signIn(admin.email)
    const theirs = await startSlow(member.id)
    const own = await startSlow(admin.id)
    const watching = await follow(theirs, adminCookie)
    const following = await follow(own, adminCookie)
    await updateUserControls(first, admin.id, { isAdmin: false })
    await watching.ended
    expect(watching.events.at(-1)).toEqual({ event: 'error', data: { error: SESSION_ENDED } })
    await stopGeneration(own, admin.id)
    await following.ended
    expect(following.events.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } })
  })
})

async function* readServerSentEventsOf(response: Response) {
  for await (const { event, data } of readServerSentEvents(response.body!)) yield { event, data: JSON.parse(data) as unknown }
}
