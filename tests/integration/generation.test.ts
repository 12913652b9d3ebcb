import { prisma } from '~/server/platform/db.server'
import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { startGeneration, stopGeneration, subscribe, waitForGeneration } from '~/server/generation/job/jobs.server'
import { claimQuota, getRemainingQuota, utcDay } from '~/server/usage/quota.server'
import { DEFAULT_TEXT, splitPieces, type FakeOpenAI } from '../fixtures/fake-openai'
import { resetDatabase } from '../setup/db'
import { setModelTimeout, useFakeModel, useOfflineDrafter } from '../setup/model'
import { FULL_INPUT } from '../setup/narrative-input'
import { makeUser } from '../setup/users'
import { until } from '../setup/until'
import { QuotaError } from '~/server/usage/contract.server'

let fake: FakeOpenAI
const MODEL_TIMEOUT_MS = 500

beforeAll(async () => {
  fake = await useFakeModel({ timeoutMs: MODEL_TIMEOUT_MS })
})
afterAll(async () => {
  useOfflineDrafter()
  await fake.close()
})
beforeEach(async () => {
  await resetDatabase()
  fake.reset()
})

const withMarker = (marker: string) => ({ ...FULL_INPUT, missionStatement: `${FULL_INPUT.missionStatement} ${marker}` })

async function generate(userId: string, input = FULL_INPUT) {
  const started = await startGeneration(userId, input)
  await started.finished
  return prisma.narrative.findUniqueOrThrow({ where: { id: started.id } })
}

describe('generation with a model', () => {
  it('streams the whole text, saves it as complete and uses one unit of quota', async () => {
    const user = await makeUser()
    const narrative = await generate(user.id)
    expect(narrative).toMatchObject({ status: 'complete', generatedNarrative: DEFAULT_TEXT, engine: 'gpt-4', tone: 'professional' })
    expect(await getRemainingQuota(user.id)).toBe(9)
  })

  it('sends one user message with the filled prompt and the configured parameters', async () => {
    const user = await makeUser()
    await generate(user.id, withMarker('one-user-message'))
    const { body } = fake.requests.find((request) => JSON.stringify(request.body).includes('one-user-message'))!
    expect(body).toMatchObject({ model: 'gpt-4', temperature: 0.7, max_tokens: 1000, stream: true })
    expect(body.messages).toHaveLength(1)
    expect(body.messages[0].role).toBe('user')
    expect(body.messages[0].content).toContain('Harvest Table Food Bank')
  })

  it.each([
    ['a 429 after every retry', '[[fake:429]]'],
    ['a 500', '[[fake:500]]'],
    ['a stall inside the stream', '[[fake:stall]]'],
    ['a connection dropped mid-stream', '[[fake:drop]]'],
    ['a server that never answers', '[[fake:hang]]'],
  ])('ends %s in bounded time as failed, never complete, and refunds the quota', async (_, marker) => {
    const user = await makeUser()
    const startedAt = Date.now()
    const narrative = await generate(user.id, withMarker(marker))
    expect(Date.now() - startedAt).toBeLessThan(15_000)
    expect(narrative.status).toBe('failed')
    expect(narrative.generatedNarrative).not.toBe(DEFAULT_TEXT)
    expect(await getRemainingQuota(user.id)).toBe(10)
  })

  it('retries a 429 three times before giving up', async () => {
    // The retries are counted, not timed: on a busy machine the short timeout could end them first.
    setModelTimeout(10_000)
    try {
      const user = await makeUser()
      expect((await generate(user.id, withMarker('[[fake:429]] four-tries'))).status).toBe('failed')
      expect(fake.requests.filter((request) => JSON.stringify(request.body).includes('four-tries'))).toHaveLength(4)
      expect(fake.counts['429']).toBe(4)
    } finally {
      setModelTimeout(MODEL_TIMEOUT_MS)
    }
  })

  it('stops on Stop long before the answer would end, keeps the partial text as stopped and does not refund', async () => {
    const user = await makeUser()
    const { id, finished } = await startGeneration(user.id, withMarker('[[fake:slow]]'))
    let streamed = ''
    subscribe(id, 0, (event) => void (event.type === 'delta' && (streamed += event.text)))
    // The slow answer writes a piece every 300 ms for minutes: Stop once the first has arrived.
    await until(() => streamed.trim() !== '', { what: 'the first piece of the narrative' })
    const streamedAtStop = streamed
    expect(await stopGeneration(id, user.id)).toBe(true)
    await finished
    const narrative = await prisma.narrative.findUniqueOrThrow({ where: { id } })
    expect(narrative.status).toBe('stopped')
    // It stopped where it was, by the model's own clock rather than the machine's: the text saved is what had
    // been written when Stop came, give or take the one piece in flight.
    expect(narrative.generatedNarrative.startsWith(streamedAtStop)).toBe(true)
    expect(splitPieces(narrative.generatedNarrative).length).toBeLessThanOrEqual(splitPieces(streamedAtStop).length + 1)
    expect(DEFAULT_TEXT.startsWith(narrative.generatedNarrative)).toBe(true)
    expect(await getRemainingQuota(user.id)).toBe(9)
  })

  it('lets nobody but the owner stop a generation', async () => {
    const owner = await makeUser()
    const other = await makeUser()
    const { id } = await startGeneration(owner.id, withMarker('[[fake:slow]]'))
    expect(await stopGeneration(id, other.id)).toBe(false)
    await stopGeneration(id, owner.id)
    await waitForGeneration(id)
  })
})

describe('quota', () => {
  it('gives exactly 3 of 20 parallel claims when 3 are left', async () => {
    const user = await makeUser()
    await prisma.user.update({ where: { id: user.id }, data: { quotaDay: utcDay(), quotaUsed: 7 } })
    const claims = await Promise.all(Array.from({ length: 20 }, () => prisma.$transaction((tx) => claimQuota(tx, user.id))))
    expect(claims.filter(Boolean)).toHaveLength(3)
    expect(await getRemainingQuota(user.id)).toBe(0)
  })

  it('starts a new day with the full limit', async () => {
    const user = await makeUser()
    await prisma.user.update({ where: { id: user.id }, data: { quotaDay: '2000-01-01', quotaUsed: 10 } })
    expect(await getRemainingQuota(user.id)).toBe(10)
    await expect(prisma.$transaction((tx) => claimQuota(tx, user.id))).resolves.toBe(utcDay())
  })

  it('refuses a generation with no quota left, spending nothing', async () => {
    const user = await makeUser()
    await prisma.user.update({ where: { id: user.id }, data: { quotaDay: utcDay(), quotaUsed: 10 } })
    await expect(startGeneration(user.id, withMarker('no-quota-left'))).rejects.toBeInstanceOf(QuotaError)
    expect(await prisma.narrative.count()).toBe(0)
    expect(fake.requests.filter((request) => JSON.stringify(request.body).includes('no-quota-left'))).toHaveLength(0)
  })

  it('starts every generation of a burst from many users (let through a few per turn), and completes each', async () => {
    // Thirteen at once on a busy machine can outlast the short timeout the failure cases need.
    setModelTimeout(10_000)
    try {
      const users = await Promise.all(Array.from({ length: 13 }, () => makeUser()))
      const started = await Promise.all(users.map((user) => startGeneration(user.id, withMarker('burst-of-thirteen'))))
      await Promise.all(started.map((s) => s.finished))
      const saved = await prisma.narrative.findMany({ where: { id: { in: started.map((s) => s.id) } } })
      expect(saved.map((n) => n.status)).toEqual(Array(13).fill('complete'))
      // Only this burst's: a retry of an earlier test's timed-out call can reach the fake server late.
      expect(fake.requests.filter((request) => JSON.stringify(request.body).includes('burst-of-thirteen'))).toHaveLength(13)
    } finally {
      setModelTimeout(MODEL_TIMEOUT_MS)
    }
  })

  it('runs at most two generations of one user at once', async () => {
    const user = await makeUser()
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => startGeneration(user.id, withMarker('[[fake:slow]]'))))
    const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
    expect(started).toHaveLength(2)
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof QuotaError)).toHaveLength(3)
    for (const { id } of started) await stopGeneration(id, user.id)
    await Promise.all(started.map((s) => s.finished))
  })
})

describe('the offline drafter', () => {
  beforeAll(() => useOfflineDrafter())
  afterAll(async () => {
    await fake.close()
    fake = await useFakeModel({ timeoutMs: MODEL_TIMEOUT_MS })
  })

  it('writes the narrative from the inputs when no model is configured', async () => {
    const user = await makeUser()
    const input = { ...FULL_INPUT, company: 'Riverbend Literacy Project' }
    const narrative = await generate(user.id, input)
    expect(narrative).toMatchObject({ status: 'complete', engine: 'offline-drafter' })
    // One of the drafter's arrangements of these inputs (a regeneration takes the next).
    const arrangements = Array.from({ length: 12 }, (_, variation) => draftNarrative(input, null, { variation }))
    expect(arrangements).toContain(narrative.generatedNarrative)
    expect(fake.requests.filter((r) => JSON.stringify(r.body).includes('Riverbend'))).toHaveLength(0)
  })
})
