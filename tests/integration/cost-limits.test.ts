import { prisma } from '~/server/platform/db.server'
import { action as generateApi } from '~/routes/api/generate'
import { action as narrativesApi } from '~/routes/api/narratives'
import { action as dashboardAction } from '~/routes/app/dashboard'
import { action as loginAction } from '~/routes/public/login'
import { loader as generationEvents } from '~/routes/resources/generation-events'
import { startGeneration, stopGeneration, waitForGeneration } from '~/server/generation/job/jobs.server'
import { TOO_MANY_STREAMS } from '~/server/generation/follow/event-stream.server'
import { MAX_STREAMS_PER_USER } from '~/server/generation/follow/stream-slots.server'
import { resetEnvForTests } from '~/server/platform/env.server'
import { utcDay, whyRefused } from '~/server/usage/quota.server'
import { deleteAccount } from '~/server/accounts/account.server'
import type { FakeOpenAI } from '../fixtures/fake-openai'
import { resetDatabase } from '../setup/db'
import { useFakeModel, useOfflineDrafter } from '../setup/model'
import { asFormFields, FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, jsonRequest, routeArgs } from '../setup/requests'
import { makeApiUser, makeUser, PASSWORD } from '../setup/users'
import { INSTANCE_EXHAUSTED } from '~/server/usage/contract.server'

// What one person, or many throwaway accounts, can cost an instance: model calls across the whole
// instance, records kept, writes per minute, open streams. docs/security.md#quota-and-the-model.

let fake: FakeOpenAI
const SLOW = { ...FULL_INPUT, missionStatement: `${FULL_INPUT.missionStatement} [[fake:slow]]` }
const running: { id: string; userId: string }[] = []

beforeAll(async () => {
  fake = await useFakeModel({ timeoutMs: 5000 })
})
afterAll(async () => {
  useOfflineDrafter()
  await fake.close()
})
beforeEach(resetDatabase)
afterEach(async () => {
  for (const { id, userId } of running.splice(0)) {
    await stopGeneration(id, userId)
    await waitForGeneration(id)
  }
  delete process.env.MAX_DAILY_GENERATIONS
  delete process.env.MAX_SAVED_NARRATIVES
  delete process.env.MAX_CREATES_PER_MINUTE
  resetEnvForTests()
})

function configure(values: Record<string, string>) {
  Object.assign(process.env, values)
  resetEnvForTests()
}

async function startSlow(userId: string) {
  const { id } = await startGeneration(userId, SLOW)
  running.push({ id, userId })
  return id
}

const generate = (token: string) => call(generateApi, jsonRequest('/api/narrative/generate', FULL_INPUT, { token }))
const create = (token: string) =>
  call(
    narrativesApi,
    jsonRequest('/api/narrative', { ...FULL_INPUT, tone: 'professional', generatedNarrative: 'Kept as written.' }, { token }),
  )

describe('MAX_DAILY_GENERATIONS', () => {
  it('refuses generations past the instance-wide limit with 429, whoever asks; a refund makes room again', async () => {
    configure({ MAX_DAILY_GENERATIONS: '2' })
    // One generation fails upstream and is refunded: it no longer counts.
    const failed = await startGeneration((await makeUser()).id, {
      ...FULL_INPUT,
      missionStatement: `${FULL_INPUT.missionStatement} [[fake:500]]`,
    })
    await failed.finished
    await startSlow((await makeUser()).id)
    await startSlow((await makeUser()).id)
    const { token } = await makeApiUser()
    const refused = await generate(token)
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe(INSTANCE_EXHAUSTED)
    expect(await prisma.narrative.count({ where: { status: 'generating' } })).toBe(2)
  })

  it('still counts the generations of an account deleted today: deleting and signing up again frees none', async () => {
    configure({ MAX_DAILY_GENERATIONS: '2' })
    await makeUser() // the first account, the administrator, stays
    const throwaway = await makeUser({ email: 'throwaway@example.org' })
    for (const _ of [1, 2]) {
      const { id, finished } = await startGeneration(throwaway.id, FULL_INPUT)
      await finished
      expect((await prisma.narrative.findUniqueOrThrow({ where: { id } })).status).toBe('complete')
    }
    await deleteAccount(throwaway, PASSWORD)
    expect(await prisma.user.count({ where: { id: throwaway.id } })).toBe(0)

    const { token } = await makeApiUser({ email: 'throwaway@example.org' })
    const refused = await generate(token)
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe(INSTANCE_EXHAUSTED)
  })

  it('means no limit at 0', async () => {
    configure({ MAX_DAILY_GENERATIONS: '0' })
    for (let i = 0; i < 3; i++) await startSlow((await makeUser()).id)
    expect(await prisma.narrative.count({ where: { status: 'generating' } })).toBe(3)
  })
})

describe('MAX_SAVED_NARRATIVES', () => {
  it('refuses to keep more, through the API and a generation, with a clear 403', async () => {
    configure({ MAX_SAVED_NARRATIVES: '2' })
    const { user, token } = await makeApiUser()
    expect((await create(token)).status).toBe(201)
    expect((await create(token)).status).toBe(201)
    const third = await create(token)
    expect(third.status).toBe(403)
    expect(third.body.error).toMatch(/You keep 2 narratives, the most one account can\. Delete some/)
    const generation = await generate(token)
    expect(generation.status).toBe(403)
    expect(generation.body.error).toBe(third.body.error)
    const cookie = cookiesFrom((await call(loginAction, formRequest('/login', { email: user.email, password: PASSWORD }))).headers)
    const page = await call(
      dashboardAction,
      formRequest('/dashboard', { ...asFormFields(FULL_INPUT), intent: 'generate', mode: 'stream' }, { cookie }),
    )
    expect(page.status).toBe(403)
    expect(await prisma.narrative.count({ where: { userId: user.id } })).toBe(2)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).quotaUsed).toBe(0)
  })

  it('never lets parallel creates past the limit', async () => {
    configure({ MAX_SAVED_NARRATIVES: '3' })
    const { user, token } = await makeApiUser()
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(token)))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3)
    expect(await prisma.narrative.count({ where: { userId: user.id } })).toBe(3)
  })
})

it('limits how fast one user saves narratives through the API (MAX_CREATES_PER_MINUTE)', async () => {
  const { token } = await makeApiUser()
  configure({ MAX_CREATES_PER_MINUTE: '5' })
  for (let i = 0; i < 5; i++) expect((await create(token)).status).toBe(201)
  const refused = await create(token)
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
})

it('lets one user follow a handful of generations at once, and answers 429 past that', async () => {
  const user = await makeUser()
  const id = await startSlow(user.id)
  const cookie = cookiesFrom((await call(loginAction, formRequest('/login', { email: user.email, password: PASSWORD }))).headers)
  const follow = async () => {
    const controller = new AbortController()
    const request = new Request(`https://narratives.example.org/resources/generations/${id}`, {
      headers: { Cookie: cookie },
      signal: controller.signal,
    })
    const response = (await generationEvents(routeArgs(request, { id }))) as Response
    return { response, close: () => controller.abort() }
  }
  const open = []
  for (let i = 0; i < MAX_STREAMS_PER_USER; i++) open.push(await follow())
  expect(open.map(({ response }) => response.status)).toEqual(Array(MAX_STREAMS_PER_USER).fill(200))
  const refused = await follow()
  expect(refused.response.status).toBe(429)
  expect(await refused.response.json()).toEqual({ error: TOO_MANY_STREAMS })
  // A client that left before its stream was built holds no place.
  const gone = new AbortController()
  gone.abort()
  const left = new Request(`https://narratives.example.org/resources/generations/${id}`, {
    headers: { Cookie: cookie },
    signal: gone.signal,
  })
  await generationEvents(routeArgs(left, { id }))
  // Closing a tab makes room (with PostgreSQL once its row is deleted, a moment after).
  open.pop()!.close()
  open.push(await vi.waitUntil(async () => follow().then((stream) => (stream.response.status === 200 ? stream : undefined))))
  expect((await follow()).response.status).toBe(429)
  for (const stream of open) stream.close()
})

it('never blames the daily limit when quota is left (a running generation ended between the claim and the reason)', async () => {
  const user = await makeUser()
  expect(await whyRefused(user.id)).toBe('running')
  await prisma.user.update({ where: { id: user.id }, data: { quotaDay: utcDay(), quotaUsed: 10 } })
  expect(await whyRefused(user.id)).toBe('daily')
})
