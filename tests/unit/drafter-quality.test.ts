import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { findClaims } from '~/server/narratives/claims.server'
import { leftOut } from '~/server/narratives/coverage.server'
import { LONG_TEXT_MAX, NarrativeInputSchema, type NarrativeInput } from '~/shared/narrative-schema'
import { countWords } from '~/shared/text'
import { TONES, type Tone } from '~/shared/tones'
import { ORGANISATIONS, type Organisation } from '../fixtures/organisations'
import { listMarkers, numeralRun, PADDING, sentencesOf, sharedSentences, splicesAfterColon, verblessSentences } from '../setup/prose'

// docs/drafter.md and docs/decisions/033: the offline drafter's first draft, read as a grant writer reads it,
// over every organisation of tests/fixtures in every tone. Nothing here reads the samples of docs/drafter.md.

const drafts = new Map<Organisation, Record<Tone, string>>(
  ORGANISATIONS.map((organisation) => [
    organisation,
    Object.fromEntries(TONES.map((tone) => [tone, draftNarrative({ ...organisation.input, selectedTone: tone })])) as Record<Tone, string>,
  ]),
)
const inputsOf = ({ input }: Organisation) => {
  const { selectedTone: _tone, ...inputs } = input
  return inputs
}

describe('the organisations the drafter is measured on', () => {
  it('are at least 12, sparse and rich, for-profit, public and charity, in US and UK spelling, of every kind and style', () => {
    expect(ORGANISATIONS.length).toBeGreaterThanOrEqual(12)
    const values = (key: keyof Organisation) => new Set(ORGANISATIONS.map((organisation) => organisation[key]))
    for (const richness of ['sparse', 'medium', 'rich']) expect(values('richness')).toContain(richness)
    for (const sector of ['charity', 'for-profit', 'public']) expect(values('sector')).toContain(sector)
    for (const spelling of ['us', 'uk']) expect(values('spelling')).toContain(spelling)
    for (const kind of ['charity', 'social enterprise', 'company', 'research group', 'school', 'co-operative', 'arts body', 'public body'])
      expect(values('kind')).toContain(kind)
    for (const style of ['prose', 'bullets', 'semicolon list', 'one line a field', 'long paragraphs'])
      expect(values('style')).toContain(style)
  })

  it.each(ORGANISATIONS.map((organisation) => [organisation.input.company, organisation.input]))(
    '%s fits the form’s schema',
    (_name, input) => {
      expect(NarrativeInputSchema.parse(input)).toEqual(input)
      expect(input.missionStatement.length).toBeLessThanOrEqual(LONG_TEXT_MAX)
    },
  )
})

describe('stock text', () => {
  // Two applicants using the drafter must not send funders the same sentences.
  it.each(TONES)('in the %s tone, unrelated organisations share under 5 per cent of their sentences word for word', (tone) => {
    let shared = 0
    let sentences = 0
    for (const [index, a] of ORGANISATIONS.entries()) {
      for (const b of ORGANISATIONS.slice(index + 1)) {
        const pair = sharedSentences(drafts.get(a)![tone], drafts.get(b)![tone])
        expect(pair.share, `${a.input.company} and ${b.input.company}: ${pair.shared.join(' | ')}`).toBeLessThan(0.05)
        shared += pair.shared.length
        sentences += Math.min(sentencesOf(drafts.get(a)![tone]).length, sentencesOf(drafts.get(b)![tone]).length)
      }
    }
    expect(shared / sentences).toBeLessThan(0.05)
  })

  it('writes no sentence about the document itself, nor about people the inputs never mention', () => {
    for (const [organisation, byTone] of drafts)
      for (const tone of TONES) expect(byTone[tone], `${organisation.input.company}, ${tone}`).not.toMatch(PADDING)
  })
})

describe.each(ORGANISATIONS.map((organisation) => [organisation.input.company, organisation] as const))(
  'the draft for %s',
  (_name, organisation) => {
    const byTone = drafts.get(organisation)!
    const inputs = inputsOf(organisation)

    it.each(TONES)('in the %s tone is at most 400 words of prose that states only the input’s facts', (tone) => {
      const draft = byTone[tone]
      expect(countWords(draft)).toBeLessThanOrEqual(400)
      // A rich organisation fills the 300-400 words; a sparse one is told in fewer, with nothing invented.
      if (organisation.richness === 'rich') expect(countWords(draft)).toBeGreaterThanOrEqual(300)
      expect(
        findClaims(draft, inputs)
          .filter((claim) => !claim.supported)
          .map((claim) => claim.text),
      ).toEqual([])
      expect(listMarkers(draft)).toEqual([])
      expect(splicesAfterColon(draft, organisation.input)).toEqual([])
    })

    it.each(TONES)(
      'in the %s tone carries every programme, result, figure and story, or leaves out only what 400 words cannot hold',
      (tone) => {
        const draft = byTone[tone]
        const missing = leftOut(draft, inputs)
        if (countWords(draft) < 360) expect(missing).toEqual([])
        else expect(missing.length).toBeLessThan(3)
      },
    )

    it.each(TONES)('in the %s tone ends on a request and names the primary contact', (tone) => {
      const close = byTone[tone].split('\n\n').at(-1)!
      expect(close).toMatch(/seeking funding|looking for (?:support|partners)|need your support|funding is sought/)
      expect(close).toContain(organisation.input.contactName1)
    })

    it.each(TONES)('in the %s tone opens no two sentences in a row on a figure, and gives (nearly) every sentence a verb', (tone) => {
      expect(numeralRun(byTone[tone])).toBeLessThanOrEqual(1)
      const verbless = verblessSentences(byTone[tone])
      expect(verbless.length / sentencesOf(byTone[tone]).length, verbless.join(' | ')).toBeLessThanOrEqual(0.03)
    })

    it('writes in the organisation’s own spelling and apostrophe', () => {
      for (const tone of TONES) {
        const draft = byTone[tone]
        const own = draftWithoutInputs(draft, organisation.input)
        if (organisation.spelling === 'uk') expect(own, tone).not.toMatch(/\b(?:organization|programs?|center)\b/)
        else expect(own, tone).not.toMatch(/\b(?:organisation|programmes?|centre)\b/)
        const curly = /’/.test(Object.values(inputs).join(' '))
        expect(own, tone).not.toMatch(curly ? /[a-z]'[a-z]/i : /[a-z]’[a-z]/i)
      }
    })

    it('is told differently when regenerated, in every tone', () => {
      for (const tone of TONES)
        expect(draftNarrative({ ...organisation.input, selectedTone: tone }, null, { variation: 1 }), tone).not.toBe(byTone[tone])
    })
  },
)

// Organisations no one tuned the drafter on: each field from another fixture (the mission of one, the
// programmes of a fourth, the results of an eighth...), so a rule that only fits the fixtures as written fails here.
const RECOMBINED: NarrativeInput[] = ORGANISATIONS.map((organisation, index) => {
  const from = (step: number) => ORGANISATIONS[(index + step) % ORGANISATIONS.length].input
  return {
    ...organisation.input,
    keyPrograms: from(3).keyPrograms,
    impactMetrics: from(7).impactMetrics,
    targetAudience: from(11).targetAudience,
    geographicFocus: from(5).geographicFocus,
    successStory: from(2).successStory,
  }
})

describe.each(RECOMBINED.map((input, index) => [index, input] as const))('the draft for recombined organisation %i', (_index, input) => {
  const { selectedTone: _tone, ...inputs } = input
  it.each(TONES)(
    'in the %s tone keeps the same promises: facts of the inputs only, all of them, prose, a request and the contact',
    (tone) => {
      const draft = draftNarrative({ ...input, selectedTone: tone })
      expect(countWords(draft)).toBeLessThanOrEqual(400)
      expect(
        findClaims(draft, inputs)
          .filter((claim) => !claim.supported)
          .map((claim) => claim.text),
      ).toEqual([])
      expect(draft).not.toMatch(PADDING)
      expect(listMarkers(draft)).toEqual([])
      expect(numeralRun(draft)).toBeLessThanOrEqual(1)
      expect(draft).not.toMatch(/\b(?:in|is) since\b|\(\s+\w|(?:were|was) exceeded/i)
      if (countWords(draft) < 360) expect(leftOut(draft, inputs)).toEqual([])
      const close = draft.split('\n\n').at(-1)!
      expect(close).toMatch(/seeking funding|looking for (?:support|partners)|need your support|funding is sought/)
      expect(close).toContain(input.contactName1)
      expect(draftNarrative({ ...input, selectedTone: tone }, null, { variation: 1 })).not.toBe(draft)
    },
  )
})

/** The draft with every run of five or more words the inputs also have taken out: what the drafter wrote itself. */
function draftWithoutInputs(draft: string, input: NarrativeInput): string {
  const source = Object.values(input).filter(Boolean).join(' ').toLowerCase()
  return draft
    .split(/(?<=[.!?])\s+/)
    .map((sentence) =>
      sentence
        .split(/,\s+/)
        .filter((part) => !source.includes(part.toLowerCase().replace(/[.!?]$/, '')))
        .join(', '),
    )
    .join(' ')
}
