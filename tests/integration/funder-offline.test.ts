import fs from 'node:fs'
import { prisma } from '~/server/platform/db.server'
import { startGeneration } from '~/server/generation/job/jobs.server'
import { offlineDrafter } from '~/server/generation/engines/engine.server'
import { createFunder, forFunder } from '~/server/funders/funders.server'
import { readCallFile } from '~/server/funders/call-file.server'
import { alignmentOfNarrative } from '~/server/narratives/narratives.server'
import { countWords } from '~/shared/text'
import { FOOD_BANK } from '../fixtures/organisations'
import { resetDatabase } from '../setup/db'
import { useOfflineDrafter } from '../setup/model'
import { makeUser } from '../setup/users'

// The offline drafter writing for the community foundation's call: what the inputs support is answered,
// the rest shown as gaps, the call's limit kept.

beforeAll(useOfflineDrafter)
beforeEach(resetDatabase)

async function writeFor(options: { maxWords?: number } = {}) {
  const user = await makeUser()
  const callText = await readCallFile(
    new File([new Uint8Array(fs.readFileSync('tests/fixtures/funders/community-foundation.docx'))], 'call.docx'),
  )
  const funder = await createFunder(user, { name: 'Lane County Community Foundation', callText, ...options })
  const started = await startGeneration(
    user.id,
    FOOD_BANK.input,
    await forFunder(user, { funderId: funder.id, amountRequested: '$25,000' }),
  )
  await started.finished
  return prisma.narrative.findUniqueOrThrow({ where: { id: started.id } })
}

it('answers from the inputs what they support, shows the rest as gaps, and invents no fact', async () => {
  const narrative = await writeFor()
  expect(narrative).toMatchObject({
    status: 'complete',
    engine: 'offline-drafter',
    funderName: 'Lane County Community Foundation',
    deadline: '2027-03-13',
  })
  const alignment = alignmentOfNarrative(narrative)
  expect(alignment.slice(0, 3).map((item) => item.state)).toEqual(['answered', 'answered', 'answered'])
  expect(alignment[4]).toMatchObject({ state: 'missing', fields: [] })
  expect(JSON.parse(narrative.claims!).filter((claim: { supported: boolean }) => !claim.supported)).toEqual([])
})

it("keeps the call's word limit", async () => {
  const narrative = await writeFor({ maxWords: 150 })
  expect(countWords(narrative.generatedNarrative)).toBeLessThanOrEqual(150)
  expect(narrative.generatedNarrative).toMatch(/[.!?]$/)
})

// These need the offline engine to hand the brief to the drafter's plan (its stream takes the brief as a
// third argument); until it does they are reported as skipped, not passed.
describe.skipIf(offlineDrafter.stream.length < 3)('the drafter planning for the brief', () => {
  it('names the funder and the amount in the ask', async () => {
    const { generatedNarrative } = await writeFor()
    const ask = generatedNarrative.split('\n\n').at(-1)!
    expect(ask).toContain('Lane County Community Foundation')
    expect(ask).toContain('$25,000')
  })

  it('says nothing of a priority its inputs do not speak to: a gap, never a claim', async () => {
    const alignment = alignmentOfNarrative(await writeFor())
    expect(alignment.filter((item) => item.state === 'unsupported')).toEqual([])
  })
})
