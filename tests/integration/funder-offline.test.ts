import fs from 'node:fs'
import { prisma } from '~/server/platform/db.server'
import { startGeneration, startVariant } from '~/server/generation/job/jobs.server'
import { getRemainingQuota } from '~/server/usage/quota.server'
import { createFunder, forFunder } from '~/server/funders/funders.server'
import { readCallFile } from '~/server/funders/call-file.server'
import { alignmentOfNarrative } from '~/server/narratives/narratives.server'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { countWords } from '~/shared/text'
import { FOOD_BANK, YOUTH_ORCHESTRA } from '../fixtures/organisations'
import { resetDatabase } from '../setup/db'
import { useOfflineDrafter } from '../setup/model'
import { makeUser } from '../setup/users'

// The offline drafter writing for the three calls of tests/fixtures/funders: what the inputs support is
// answered, most important first; the rest is shown as a gap and never written towards; the ask names
// the funder and the amount; the call's limit is kept.

beforeAll(useOfflineDrafter)
beforeEach(resetDatabase)

const file = (name: string) => new File([new Uint8Array(fs.readFileSync(`tests/fixtures/funders/${name}`))], name)

type Call = { funder: string; callText: () => Promise<string>; maxWords?: number }

const COMMUNITY: Call = {
  funder: 'Lane County Community Foundation',
  callText: () => readCallFile(file('community-foundation.docx'), { person: 'community' }),
}
const GOVERNMENT: Call = {
  funder: 'Department for Rural Affairs',
  callText: () => readCallFile(file('government-programme.pdf'), { person: 'government' }),
}
const CORPORATE: Call = {
  funder: 'Acme Outfitters',
  callText: async () => fs.readFileSync('tests/fixtures/funders/corporate-giving.txt', 'utf8'),
}

async function writeFor(call: Call, input: NarrativeInput, amountRequested: string, maxWords?: number) {
  const user = await makeUser()
  const funder = await createFunder(user, { name: call.funder, callText: await call.callText(), ...(maxWords ? { maxWords } : {}) })
  const started = await startGeneration(user.id, input, await forFunder(user, { funderId: funder.id, amountRequested }))
  await started.finished
  const narrative = await prisma.narrative.findUniqueOrThrow({ where: { id: started.id } })
  return { narrative, alignment: alignmentOfNarrative(narrative), ask: narrative.generatedNarrative.split('\n\n').at(-1)! }
}

const states = (alignment: { state: string }[]) => alignment.map((item) => item.state)
const unsupportedClaims = (claims: string | null) => JSON.parse(claims!).filter((claim: { supported: boolean }) => !claim.supported)

it("answers the community foundation's priorities the inputs support, first things first, and names the funder and amount", async () => {
  const { narrative, alignment, ask } = await writeFor(COMMUNITY, FOOD_BANK.input, '$25,000')
  expect(narrative).toMatchObject({ status: 'complete', engine: 'offline-drafter', deadline: '2027-03-13' })
  // Food security, rural reach and measurable outcomes from the inputs; sustainability and lived experience are gaps.
  expect(states(alignment)).toEqual(['answered', 'answered', 'answered', 'missing', 'missing'])
  expect(alignment[1].sentences.join(' ')).toContain('rural towns')
  expect(alignment[3]).toMatchObject({ sentences: [], fields: [] })
  expect(alignment[3].gap).toMatch(/your inputs say nothing about it/)
  expect(ask).toContain('Lane County Food Share asks the Lane County Community Foundation for $25,000')
  expect(unsupportedClaims(narrative.claims)).toEqual([])
})

it("keeps the call's word limit: the ask within it, the first priority's facts first, no lead-in left without them", async () => {
  const { narrative, alignment, ask } = await writeFor(COMMUNITY, { ...FOOD_BANK.input, selectedTone: 'conversational' }, '$25,000', 120)
  expect(countWords(narrative.generatedNarrative)).toBeLessThanOrEqual(120)
  expect(narrative.generatedNarrative).toMatch(
    /^At Lane County Food Share, we're here to make sure no one in Lane County goes hungry\.[^]*[.!?]$/,
  )
  expect(ask).toContain('the Lane County Community Foundation for $25,000')
  expect(alignment[0].state).toBe('answered')
  expect(narrative.generatedNarrative).toContain('32 partner pantry sites')
  expect(narrative.generatedNarrative).not.toMatch(/So what has changed\?\s*(?:\n|$)/)
})

it("reads the government programme's table of criteria: the row that says what the project will do, its label no topic", async () => {
  const { narrative, alignment, ask } = await writeFor(GOVERNMENT, { ...FOOD_BANK.input, selectedTone: 'academic' }, '£40,000')
  expect(alignment.map(({ priority, state }) => [priority.split(':')[0], state])).toEqual([['Strategic fit', 'answered']])
  expect(alignment[0].sentences.join(' ')).toContain('a mobile pantry for rural towns')
  expect(ask).toContain('Funding of £40,000 is sought from the Department for Rural Affairs')
  expect(unsupportedClaims(narrative.claims)).toEqual([])
})

it("writes nothing towards the corporate page's priorities an orchestra's inputs do not speak to", async () => {
  const { narrative, alignment, ask } = await writeFor(CORPORATE, { ...YOUTH_ORCHESTRA.input, selectedTone: 'passionate' }, '$10,000')
  expect(states(alignment)).toEqual(['answered', 'missing', 'missing'])
  expect(alignment[1].gap).toMatch(/^The call asks about “Environmental stewardship/)
  expect(narrative.generatedNarrative).not.toMatch(/environment|conservation|volunteer|job|career|training/i)
  expect(countWords(narrative.generatedNarrative)).toBeLessThanOrEqual(300)
  expect(ask).toContain('We ask Acme Outfitters for $10,000')
  expect(unsupportedClaims(narrative.claims)).toEqual([])
})

it('says nothing of a priority its inputs do not speak to, in any voice: a gap, never a sentence of its own', async () => {
  for (const tone of ['professional', 'conversational', 'passionate', 'academic'] as const) {
    const { alignment } = await writeFor(COMMUNITY, { ...FOOD_BANK.input, selectedTone: tone }, '$25,000')
    expect(alignment.filter((item) => item.state === 'unsupported')).toEqual([])
  }
})

it('answers no question its inputs say nothing about: the answer fails with what to add, and its day is given back', async () => {
  const user = await makeUser()
  const question = 'How have you involved your community in planning?'
  const funder = await createFunder(user, {
    name: 'Lane County Community Foundation',
    callText: 'Call.',
    questions: [{ text: question, maxWords: 150 }],
  })
  const written = await startGeneration(user.id, FOOD_BANK.input, await forFunder(user, { funderId: funder.id }))
  await written.finished
  const before = await getRemainingQuota(user.id)
  const variant = await startVariant(user.id, written.id, { format: 'question', question: 0 })
  await variant.finished
  // Never shown as an answer: no text, and a state that is not complete.
  expect(await prisma.narrativeVariant.findUniqueOrThrow({ where: { id: variant.id } })).toMatchObject({ status: 'failed', text: '' })
  expect(await getRemainingQuota(user.id)).toBe(before)
})
