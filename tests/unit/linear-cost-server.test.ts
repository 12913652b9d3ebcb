import type { FunderBrief } from '~/server/generation/engines/contract.server'
import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { draftVariant } from '~/server/generation/drafter/variant-drafter.server'
import { readCall } from '~/server/funders/call-reading.server'
import { findAlignment, type BriefAsWritten } from '~/server/narratives/alignment.server'
import { claimInputsOf, claimsColumn, findClaims, type ClaimInputs } from '~/server/narratives/claims.server'
import { leftOut } from '~/server/narratives/coverage.server'
import { buildNarrativeDocx } from '~/server/narratives/docx.server'
import { buildNarrativePdf } from '~/server/narratives/pdf.server'
import { NARRATIVE_TEXT_MAX } from '~/shared/narrative-text'
import { LONG_TEXT_MAX, STORY_MAX, type NarrativeInput } from '~/shared/narrative-schema'
import { describeGrowth, expectLinear, growthOf, GROWTH_BOUND, repeated } from '../setup/linear-cost'
import { FOOD_BANK } from '../fixtures/organisations'

// Doubling what a person sends must not more than about double the work (docs/decisions/025): the
// server's text paths over hostile text up to the most the edge lets through (a field 5,000 characters,
// a narrative 20,000, a call 100,000). The shared text functions are in linear-cost.test.ts.
const NARRATIVE = NARRATIVE_TEXT_MAX
const CALL = 100_000
const TIMEOUT = 60_000

const BRIEF: BriefAsWritten = {
  funder: 'Lane County Community Foundation',
  amount: '$25,000',
  priorities: ['Food security: reducing hunger among families', 'Rural reach: services in rural towns', 'Measurable outcomes'],
  terms: ['food security'],
  maxWords: 500,
  questions: [],
}
const FUNDER_BRIEF: FunderBrief = {
  funder: BRIEF.funder,
  amount: BRIEF.amount,
  priorities: BRIEF.priorities,
  terms: BRIEF.terms,
  maxWords: 500,
}

/** Every long field of the form holding `text`, cut to its cap. */
function hostileInput(text: string): Required<NarrativeInput> {
  const field = text.slice(0, LONG_TEXT_MAX)
  return {
    ...(FOOD_BANK.input as Required<NarrativeInput>),
    missionStatement: field,
    keyPrograms: field,
    impactMetrics: field,
    targetAudience: field,
    geographicFocus: field,
    successStory: text.slice(0, STORY_MAX),
  }
}

/** A narrative of `text` read against the form's inputs holding a quarter of it, so both grow together. */
function inputsBeside(text: string): ClaimInputs {
  return { ...hostileInput(text.slice(0, text.length / 4)), funderName: BRIEF.funder, amountRequested: BRIEF.amount }
}

async function expectGrowthLinear(name: string, run: (text: string) => unknown, make: (chars: number) => string, cap: number) {
  const growth = await growthOf(run, make, cap)
  expect(growth.ratio, describeGrowth(name, cap, growth)).toBeLessThanOrEqual(GROWTH_BOUND)
}

describe('the server’s text paths cost no more than linear time', () => {
  test('the offline drafter: a narrative from hostile fields, with and without a funder’s brief', { timeout: TIMEOUT }, async () => {
    await expectLinear((text) => draftNarrative(hostileInput(text)), LONG_TEXT_MAX)
    await expectLinear((text) => draftNarrative(hostileInput(text), FUNDER_BRIEF), LONG_TEXT_MAX)
  })

  test('the offline drafter: variants of a hostile narrative', { timeout: TIMEOUT }, async () => {
    const input = FOOD_BANK.input as Required<NarrativeInput>
    await expectLinear(
      (narrativeText) => draftVariant({ input, narrativeText, format: 'pitch', limit: { unit: 'words', max: 150 } }),
      NARRATIVE,
    )
    await expectLinear(
      (narrativeText) => draftVariant({ input, narrativeText, format: 'custom', limit: { unit: 'characters', max: 10_000 } }),
      NARRATIVE,
    )
  })

  test('claims, alignment and coverage of a hostile narrative', { timeout: TIMEOUT }, async () => {
    await expectLinear((text) => claimsColumn(text, claimInputsOf(inputsBeside(text))), NARRATIVE)
    await expectLinear((text) => {
      const inputs = inputsBeside(text)
      return findAlignment(text, inputs, BRIEF, findClaims(text, claimInputsOf(inputs)))
    }, NARRATIVE)
    await expectLinear((text) => leftOut(text, inputsBeside(text)), NARRATIVE)
  })

  test('a hostile call read (call-reading and topics)', { timeout: TIMEOUT }, async () => {
    await expectLinear((text) => readCall(text), CALL)
  })

  test('Word and PDF files of a hostile narrative', { timeout: TIMEOUT }, async () => {
    await expectLinear((narrative) => buildNarrativeDocx({ narrative }), NARRATIVE)
    await expectLinear((narrative) => buildNarrativePdf({ narrative }), NARRATIVE, { runs: 1 })
  })
})

// Inputs that once held the server, kept as fixed cases (docs/decisions/025).
describe('hostile texts that once cost quadratic time', () => {
  test('a call of 25,000 "Mr. " (the sentence splitter re-read all it held)', { timeout: TIMEOUT }, async () => {
    await expectGrowthLinear(
      '"Mr. " call',
      (text) => readCall(text),
      (chars) => repeated('Mr. ', chars),
      CALL,
    )
    await expectGrowthLinear(
      '"No. " call',
      (text) => readCall(text),
      (chars) => repeated('No. ', chars),
      CALL,
    )
  })

  test('a narrative of 5,000 "Mr. " through alignment and variants', { timeout: TIMEOUT }, async () => {
    const input = FOOD_BANK.input as Required<NarrativeInput>
    const make = (chars: number) => repeated('Mr. ', chars)
    await expectGrowthLinear('"Mr. " alignment', (text) => findAlignment(text, inputsBeside(text), BRIEF, []), make, NARRATIVE)
    await expectGrowthLinear(
      '"Mr. " variant',
      (narrativeText) => draftVariant({ input, narrativeText, format: 'pitch', limit: { unit: 'words', max: 150 } }),
      make,
      NARRATIVE,
    )
  })
})
