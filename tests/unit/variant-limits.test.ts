import fc from 'fast-check'
import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { draftVariant } from '~/server/generation/drafter/variant-drafter.server'
import { cutToLimit, fits, limitOf, measure, VariantRequestSchema, type Limit, type VariantFormat } from '~/shared/variant-limits'
import { FULL_INPUT, toFormValuesForTests } from '../setup/narrative-input'

const parse = (body: unknown) => VariantRequestSchema.safeParse(body)
const firstError = (body: unknown) => {
  const result = parse(body)
  return result.success ? null : result.error.issues[0].message
}

describe('VariantRequestSchema and limitOf', () => {
  it('gives each fixed format its limit, and a custom one the limit it names', () => {
    expect(limitOf(parse({ format: 'pitch' }).data!)).toEqual({ unit: 'words', max: 50 })
    expect(limitOf(parse({ format: 'loi' }).data!)).toEqual({ unit: 'words', max: 150 })
    expect(limitOf(parse({ format: 'social' }).data!)).toEqual({ unit: 'characters', max: 280 })
    expect(limitOf(parse({ format: 'custom', maxWords: 40 }).data!)).toEqual({ unit: 'words', max: 40 })
    expect(limitOf(parse({ format: 'custom', maxCharacters: 500 }).data!)).toEqual({ unit: 'characters', max: 500 })
  })

  it('refuses impossible limits with a message that says why, in words and not the fields’ names', () => {
    expect(firstError({ format: 'custom', maxWords: 3 })).toBe('The word limit must be at least 10')
    expect(firstError({ format: 'custom', maxCharacters: 20 })).toBe('The character limit must be at least 50')
    expect(firstError({ format: 'custom', maxWords: 12.5 })).toBe('The word limit must be a whole number')
    expect(firstError({ format: 'custom', maxWords: 100_000 })).toBe('The word limit must be at most 1,000')
    expect(firstError({ format: 'custom' })).toBe('A custom limit needs a number of words or of characters, not both')
    expect(firstError({ format: 'custom', maxWords: 40, maxCharacters: 300 })).toBe(
      'A custom limit needs a number of words or of characters, not both',
    )
    expect(firstError({ format: 'haiku' })).toBe('Choose a format: pitch, loi, social, custom or question')
  })

  it('takes a preset chosen after a custom limit was typed: the preset keeps its own limit', () => {
    expect(parse({ format: 'pitch', maxWords: 40 }).data).toEqual({ format: 'pitch' })
    expect(limitOf(parse({ format: 'social', maxWords: 3, maxCharacters: 'x' }).data!)).toEqual({ unit: 'characters', max: 280 })
  })
})

describe('measure and cutToLimit', () => {
  it('counts characters without spaces when the rule says so, and cuts to fit that count', () => {
    const rule = { unit: 'characters', max: 20, withoutSpaces: true } as const
    expect(measure(' Two words\tand\nlines ', rule)).toBe(16)
    expect(measure(' Two words\tand\nlines ', { unit: 'characters' })).toBe(19)
    // 11 characters without spaces each: the first fits alone, not both.
    expect(cutToLimit('We feed many. We grow more.', { ...rule, max: 21 })).toBe('We feed many.')
    expect(cutToLimit('We feed many. We grow more.', { ...rule, max: 22 })).toBe('We feed many. We grow more.')
  })

  it('counts words as the word count does, and characters as code points of the trimmed text', () => {
    expect(measure('  One two\nthree.  ', { unit: 'words' })).toBe(3)
    expect(measure(' Café 🌱 ', { unit: 'characters' })).toBe(6)
  })

  it('counts a pair of surrogates as one character and a lone one as one, as the text’s code points are', () => {
    for (const text of ['😀', 'a😀b', '\ud800', '\udc00', '\ud800\ud800\udc00', '\udc00\ud800', 'e\u0301', '👩‍👩‍👧'])
      expect(measure(text, { unit: 'characters' }), JSON.stringify(text)).toBe([...text].length)
    const units = fc.array(fc.constantFrom(0x61, 0x20, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xd83d, 0xde00), { maxLength: 12 })
    fc.assert(
      fc.property(
        units,
        (codes) => measure(String.fromCharCode(...codes), { unit: 'characters' }) === [...String.fromCharCode(...codes).trim()].length,
      ),
    )
  })

  it('cuts at the last whole sentence within the limit, never inside one', () => {
    const text = 'We raised $1.5 million in 2024. Dr. Okafor leads it, e.g. food and care. Growth was 3.5% a year! Next one.'
    expect(cutToLimit(text, { unit: 'words', max: 6 })).toBe('We raised $1.5 million in 2024.')
    expect(cutToLimit(text, { unit: 'words', max: 14 })).toBe('We raised $1.5 million in 2024. Dr. Okafor leads it, e.g. food and care.')
    expect(cutToLimit(text, { unit: 'words', max: 13 })).toBe('We raised $1.5 million in 2024.')
    expect(cutToLimit(text, { unit: 'characters', max: 110 })).toBe(text)
  })

  it('keeps paragraphs, and gives null when not even the first sentence fits', () => {
    expect(cutToLimit('First one here.\n\nSecond one.', { unit: 'words', max: 5 })).toBe('First one here.\n\nSecond one.')
    expect(cutToLimit('First one here.\n\nSecond one.', { unit: 'words', max: 4 })).toBe('First one here.')
    expect(cutToLimit('A first sentence that is far too long.', { unit: 'words', max: 3 })).toBeNull()
  })
})

describe('draftVariant (the offline drafter)', () => {
  const input = toFormValuesForTests(FULL_INPUT)
  const narrative = draftNarrative(FULL_INPUT)
  const task = (format: VariantFormat, limit: Limit) => ({ input, narrativeText: narrative, format, limit })
  const limits: Limit[] = [
    ...Array.from({ length: 191 }, (_, index) => ({ unit: 'words' as const, max: index + 10 })),
    ...Array.from({ length: 96 }, (_, index) => ({ unit: 'characters' as const, max: 50 + index * 10 })),
  ]

  it('always keeps the limit, in whole sentences of the narrative', () => {
    for (const limit of limits) {
      const text = draftVariant(task('custom', limit))
      if (text === null) continue
      expect(fits(text, limit), `${limit.max} ${limit.unit}`).toBe(true)
      expect(text).toMatch(/[.!?]$/)
    }
  })

  it('writes something real for each format, naming the contact in a letter of inquiry', () => {
    const pitch = draftVariant(task('pitch', { unit: 'words', max: 50 }))!
    expect(pitch).toContain('Harvest Table Food Bank exists to end hunger in Travis County')
    const loi = draftVariant(task('loi', { unit: 'words', max: 150 }))!
    expect(loi).toContain('Maria Delgado, Executive Director, at maria@harvesttable.org')
    expect(loi).toMatch(/is seeking funding to sustain and extend/)
    expect(measure(draftVariant(task('social', { unit: 'characters', max: 280 }))!, { unit: 'characters' })).toBeLessThanOrEqual(280)
  })

  it('gives null when no whole sentence fits', () => {
    expect(draftVariant(task('custom', { unit: 'words', max: 5 }))).toBeNull()
  })
})
