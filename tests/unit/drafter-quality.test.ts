import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { findClaims } from '~/server/narratives/claims.server'
import { LONG_TEXT_MAX, NarrativeInputSchema } from '~/shared/narrative-schema'
import { countWords } from '~/shared/text'
import { TONES } from '~/shared/tones'
import { ORGANISATIONS } from '../fixtures/organisations'
import { listMarkers, sentencesOf, sharedRunShare, splicesAfterColon, verblessSentences } from '../setup/prose'

// docs/decisions/021: the offline drafter's first draft, read as a grant writer reads it, for a fixed set of
// realistic organisations in every tone.

describe('the organisations the drafter is measured on', () => {
  it('are at least 12, of every kind, written in every style', () => {
    expect(ORGANISATIONS.length).toBeGreaterThanOrEqual(12)
    const kinds = new Set(ORGANISATIONS.map((organisation) => organisation.kind))
    for (const kind of ['charity', 'social enterprise', 'research group', 'school', 'co-operative', 'arts body'])
      expect(kinds).toContain(kind)
    const styles = new Set(ORGANISATIONS.map((organisation) => organisation.style))
    for (const style of ['prose', 'bullets', 'semicolon list']) expect(styles).toContain(style)
  })

  it.each(ORGANISATIONS.map((organisation) => [organisation.input.company, organisation.input]))(
    '%s fits the form’s schema',
    (_name, input) => {
      expect(NarrativeInputSchema.parse(input)).toEqual(input)
      expect(input.missionStatement.length).toBeLessThanOrEqual(LONG_TEXT_MAX)
    },
  )
})

describe.each(ORGANISATIONS.map((organisation) => [organisation.input.company, organisation.input] as const))(
  'the draft for %s',
  (_name, form) => {
    const drafts = Object.fromEntries(TONES.map((tone) => [tone, draftNarrative({ ...form, selectedTone: tone })]))
    const { selectedTone: _tone, ...inputs } = form

    it.each(TONES)('in the %s tone is 300-400 words of prose that states only the input’s facts', (tone) => {
      const draft = drafts[tone]
      const words = countWords(draft)
      expect(words).toBeGreaterThanOrEqual(300)
      expect(words).toBeLessThanOrEqual(400)
      const unsupported = findClaims(draft, inputs).filter((claim) => !claim.supported)
      expect(unsupported.map((claim) => claim.text)).toEqual([])
      expect(listMarkers(draft)).toEqual([])
      expect(splicesAfterColon(draft, form)).toEqual([])
    })

    it.each(TONES)('in the %s tone names the primary contact', (tone) => {
      expect(drafts[tone]).toContain(form.contactName1)
    })

    it.each(TONES)('in the %s tone gives (nearly) every sentence a verb', (tone) => {
      const draft = drafts[tone]
      const verbless = verblessSentences(draft)
      const sentences = sentencesOf(draft).length
      expect(verbless.length / sentences, verbless.join(' | ')).toBeLessThanOrEqual(0.03)
    })

    it('reads differently in each tone: two tones share at most a fifth of their 6-word runs', () => {
      for (const [index, a] of TONES.entries()) {
        for (const b of TONES.slice(index + 1)) expect(sharedRunShare(drafts[a], drafts[b]), `${a} and ${b}`).toBeLessThanOrEqual(0.2)
      }
    })
  },
)
