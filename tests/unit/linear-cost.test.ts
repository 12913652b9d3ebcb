import { checkEvidence } from '~/server/coach/check.server'
import { contentWords, topicsOf } from '~/server/language/topics.server'
import { contactsOf, formatContacts, hasContacts } from '~/shared/contacts'
import { cleaned } from '~/shared/cleaned'
import { keyWords, splitItems, splitSentences } from '~/shared/items'
import { NARRATIVE_TEXT_MAX, NarrativeTextSchema } from '~/shared/narrative-text'
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, STORY_MAX } from '~/shared/narrative-schema'
import { cleanName, cleanText, countWords, cutAtSpace, hasVisibleCharacter, trimEndMatching } from '~/shared/text'
import { cutToLimit, fits, measure, sentencesOf } from '~/shared/variant-limits'
import { describeGrowth, expectLinear, growthOf, GROWTH_BOUND, repeated } from '../setup/linear-cost'

// Doubling what a person sends must not more than about double the work (docs/decisions/025): every text
// function in app/shared and the coach, over hostile text up to the most the edge lets through. The
// server's text paths (drafter, claims, alignment, call reading, documents) are in linear-cost-server.test.ts.
const FIELD = LONG_TEXT_MAX
/** What a field's cleaning reads: the edge lets twice the cap through to be cleaned, then caps it. */
const FIELD_RAW = 2 * LONG_TEXT_MAX
const NARRATIVE = NARRATIVE_TEXT_MAX
const TIMEOUT = 60_000

describe('text functions cost no more than linear time', () => {
  test('text.ts', { timeout: TIMEOUT }, async () => {
    await expectLinear((text) => cleanText(text), FIELD_RAW * 2)
    await expectLinear((text) => cleanName(text), FIELD_RAW)
    await expectLinear((text) => hasVisibleCharacter(text), FIELD_RAW)
    await expectLinear((text) => countWords(text), NARRATIVE)
    await expectLinear((text) => trimEndMatching(text, /[\s.,;:]/), NARRATIVE)
    await expectLinear((text) => cutAtSpace(text, text.length / 2, '…'), NARRATIVE)
  })

  test('variant-limits.ts', { timeout: TIMEOUT }, async () => {
    await expectLinear((text) => sentencesOf(text), NARRATIVE)
    await expectLinear((text) => cutToLimit(text, { unit: 'words', max: 1000 }), NARRATIVE)
    await expectLinear((text) => cutToLimit(text, { unit: 'characters', max: 10_000 }), NARRATIVE)
    await expectLinear((text) => fits(text, { unit: 'words', max: 400 }) && measure(text, { unit: 'characters' }), NARRATIVE)
  })

  test('contacts.ts', { timeout: TIMEOUT }, async () => {
    const short = (text: string) => text.slice(0, SHORT_TEXT_MAX)
    await expectLinear((text) => hasContacts(text), NARRATIVE)
    // Each contact field is short; what grows is everything at once.
    await expectLinear((text) => {
      const fields = { contactName1: short(text), contactTitle1: short(text), contactEmail1: short(text), contactPhone1: short(text) }
      return [contactsOf(fields), formatContacts({ ...fields, contactName2: short(text), contactTitle2: short(text) })]
    }, SHORT_TEXT_MAX * 4)
  })

  test('items.ts', { timeout: TIMEOUT }, async () => {
    await expectLinear((text) => splitItems(text, 100), FIELD)
    await expectLinear((text) => splitSentences(text), NARRATIVE)
    await expectLinear((text) => keyWords(text), NARRATIVE)
  })

  test('the edge schemas: cleaned.ts and narrative-text.ts', { timeout: TIMEOUT }, async () => {
    const field = cleaned(FIELD)
    await expectLinear((text) => field.safeParse(text), FIELD_RAW)
    await expectLinear((text) => NarrativeTextSchema.safeParse({ text }), NARRATIVE * 2)
  })

  test('the evidence coach (evidence.ts, coach rules)', { timeout: TIMEOUT }, async () => {
    await expectLinear(
      (text) =>
        checkEvidence({
          missionStatement: text,
          keyPrograms: text,
          impactMetrics: text,
          targetAudience: text,
          geographicFocus: text,
          successStory: text.slice(0, STORY_MAX),
        }),
      FIELD,
    )
  })

  test('topics.ts', { timeout: TIMEOUT }, async () => {
    await expectLinear((text) => contentWords(text), NARRATIVE)
    await expectLinear((text) => topicsOf(text), NARRATIVE)
  })
})

// Inputs that once cost quadratic time, kept as fixed cases (docs/decisions/025).
describe('hostile texts that once cost quadratic time', () => {
  test('thousands of short sentences that fit their limit (each longer start was measured anew)', { timeout: TIMEOUT }, async () => {
    const make = (chars: number) => repeated('Hi! ', chars)
    const growth = await growthOf((text: string) => cutToLimit(text, { unit: 'characters', max: text.length }), make, NARRATIVE)
    expect(growth.ratio, describeGrowth('"Hi! " cut to its own length', NARRATIVE, growth)).toBeLessThanOrEqual(GROWTH_BOUND)
  })

  test('a run of abbreviations split into sentences (the splitter re-read all it held)', { timeout: TIMEOUT }, async () => {
    const growth = await growthOf(
      (text: string) => sentencesOf(text),
      (chars) => repeated('Mr. ', chars),
      NARRATIVE,
    )
    expect(growth.ratio, describeGrowth('"Mr. " sentences', NARRATIVE, growth)).toBeLessThanOrEqual(GROWTH_BOUND)
    expect(sentencesOf(repeated('Mr. ', NARRATIVE)).every((sentence) => sentence.length <= 1004)).toBe(true)
  })
})
