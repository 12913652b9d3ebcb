import { prisma } from '~/server/platform/db.server'
import { NARRATIVE_TEXT_MAX } from '~/shared/narrative-text'
import { recoverInterruptedGenerations, startGeneration, subscribe } from '~/server/generation/job/jobs.server'
import { getRemainingQuota, utcDay } from '~/server/usage/quota.server'
import { markNarrativeFailed, toNarrativeColumns } from '~/server/narratives/narratives.server'
import { resetEnvForTests } from '~/server/platform/env.server'
import { SLOW_PIECE_MS, splitPieces, type FakeOpenAI } from '../fixtures/fake-openai'
import { allowUpdates, refuseUpdates, resetDatabase } from '../setup/db'
import { useFakeModel, useOfflineDrafter } from '../setup/model'
import { FULL_INPUT } from '../setup/narrative-input'
import { makeUser } from '../setup/users'
import type { GenerationEvent } from '~/server/generation/job/contract.server'

// How a generation ends when something beyond the model goes wrong: the database refuses its final
// write, or it runs too long or too large. docs/security.md#quota-and-the-model.

let fake: FakeOpenAI | undefined

afterEach(async () => {
  await allowUpdates('refuse_text', 'Narrative')
  delete process.env.GENERATION_TIMEOUT_MS
  useOfflineDrafter()
  await fake?.close()
  fake = undefined
})
beforeEach(resetDatabase)

async function generateAndWatch(userId: string, input = FULL_INPUT) {
  const started = await startGeneration(userId, input)
  const events: GenerationEvent[] = []
  subscribe(started.id, 0, (event) => events.push(event))
  await started.finished
  return { narrative: await prisma.narrative.findUniqueOrThrow({ where: { id: started.id } }), events }
}

it('ends failed and refunded, telling its subscribers, when the database refuses the final text', async () => {
  // A real database error on the write that saves the text (complete or failed); a status-only write passes.
  await refuseUpdates('refuse_text', 'Narrative', 'generatedNarrative', `NEW."generatedNarrative" != ''`)
  const user = await makeUser()
  const { narrative, events } = await generateAndWatch(user.id)
  expect(narrative.status).toBe('failed')
  expect(await getRemainingQuota(user.id)).toBe(10)
  // The words of docs/spec.md#generation, as the person following the generation reads them.
  expect(events.at(-1)).toEqual({ type: 'error', error: 'An error occurred while generating the narrative. Please try again.' })
})

it('stops a generation that runs past GENERATION_TIMEOUT_MS: failed and refunded', async () => {
  fake = await useFakeModel({ timeoutMs: 5000 })
  const timeoutMs = 1000
  process.env.GENERATION_TIMEOUT_MS = String(timeoutMs)
  resetEnvForTests()
  const user = await makeUser()
  const startedAt = Date.now()
  // The slow mode sends a piece every SLOW_PIECE_MS (300) for minutes: never idle, never done.
  const { narrative, events } = await generateAndWatch(user.id, {
    ...FULL_INPUT,
    missionStatement: `${FULL_INPUT.missionStatement} [[fake:slow]]`,
  })
  expect(Date.now() - startedAt).toBeGreaterThanOrEqual(timeoutMs)
  // Cut off at the limit, counted on the model's clock, not the machine's (a busy one delays the pieces'
  // timers as much as the limit's, and saving the outcome can take seconds there): no more pieces than
  // that second holds, where a limit not kept would have let them run on.
  const streamed = events.map((event) => (event.type === 'delta' ? event.text : '')).join('')
  expect(splitPieces(streamed).length).toBeLessThanOrEqual(Math.ceil(timeoutMs / SLOW_PIECE_MS) + 1)
  expect(narrative.status).toBe('failed')
  expect(await getRemainingQuota(user.id)).toBe(10)
})

it('stops a model whose answer outgrows the longest narrative one can save: failed, refunded, text bounded', async () => {
  fake = await useFakeModel({ text: `${'x'.repeat(99)} `.repeat(NARRATIVE_TEXT_MAX / 50), pieceIntervalMs: 0 })
  const user = await makeUser()
  const { narrative } = await generateAndWatch(user.id)
  expect(narrative.status).toBe('failed')
  expect(narrative.generatedNarrative.length).toBeLessThanOrEqual(NARRATIVE_TEXT_MAX)
  expect(await getRemainingQuota(user.id)).toBe(10)
  // The model was cut off, not read to the end.
  expect(fake.requests).toHaveLength(1)
})

it('recovers a generation a crash left running once, failing and refunding it in one transaction', async () => {
  const user = await makeUser()
  const day = utcDay()
  // As a crash leaves it: two generations claimed today, one of them still marked generating, no job behind it.
  await prisma.user.update({ where: { id: user.id }, data: { quotaDay: day, quotaUsed: 2 } })
  const orphan = await prisma.narrative.create({
    data: { ...toNarrativeColumns(FULL_INPUT), userId: user.id, status: 'generating', engine: 'gpt-4', quotaDay: day },
  })
  const state = async () => ({
    status: (await prisma.narrative.findUniqueOrThrow({ where: { id: orphan.id } })).status,
    used: (await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).quotaUsed,
  })
  // The refund fails: the row is not marked failed either, so the next start tries both again.
  await refuseUpdates('refuse_refund', 'User', 'quotaUsed')
  await expect(recoverInterruptedGenerations()).rejects.toThrow()
  await allowUpdates('refuse_refund', 'User')
  expect(await state()).toEqual({ status: 'generating', used: 2 })
  await recoverInterruptedGenerations()
  await recoverInterruptedGenerations()
  expect(await state()).toEqual({ status: 'failed', used: 1 })
})

it('saves nothing over a generation another replica has failed and refunded meanwhile, and refunds it only once', async () => {
  // As when this process stalls past its heartbeat and another replica recovers its generation (decision 036).
  fake = await useFakeModel({ pieceIntervalMs: 5 })
  const user = await makeUser()
  const started = await startGeneration(user.id, FULL_INPUT)
  expect(await getRemainingQuota(user.id)).toBe(9)
  await markNarrativeFailed(started.id, { userId: user.id, quotaDay: utcDay() })
  expect(await getRemainingQuota(user.id)).toBe(10)
  await started.finished
  const narrative = await prisma.narrative.findUniqueOrThrow({ where: { id: started.id }, include: { versions: true } })
  expect(narrative).toMatchObject({ status: 'failed', generatedNarrative: '', versions: [] })
  expect(await getRemainingQuota(user.id)).toBe(10)
})
