import { draftVariant } from '~/server/generation/drafter/variant-drafter.server'
import { cutToLimit, fits, limitOf, measure, VariantRequestSchema, type Limit } from '~/shared/variant-limits'
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

  it('refuses impossible limits with a message that says why', () => {
    expect(firstError({ format: 'custom', maxWords: 3 })).toBe('maxWords must be at least 10')
    expect(firstError({ format: 'custom', maxCharacters: 20 })).toBe('maxCharacters must be at least 50')
    expect(firstError({ format: 'custom', maxWords: 12.5 })).toBe('maxWords must be a whole number')
    expect(firstError({ format: 'custom', maxWords: 100_000 })).toBe('maxWords must be at most 1000')
    expect(firstError({ format: 'custom' })).toBe('A custom limit needs maxWords or maxCharacters, not both')
    expect(firstError({ format: 'custom', maxWords: 40, maxCharacters: 300 })).toBe(
      'A custom limit needs maxWords or maxCharacters, not both',
    )
    expect(firstError({ format: 'pitch', maxWords: 40 })).toBe(
      'The pitch format has its own limit: choose custom to set maxWords or maxCharacters',
    )
    expect(firstError({ format: 'haiku' })).toBe('Choose a format: pitch, loi, social, custom or question')
  })
})

describe('measure and cutToLimit', () => {
  it('counts words as the word count does, and characters as code points of the trimmed text', () => {
    expect(measure('  One two\nthree.  ', 'words')).toBe(3)
    expect(measure(' Café 🌱 ', 'characters')).toBe(6)
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
  const limits: Limit[] = [
    ...Array.from({ length: 191 }, (_, index) => ({ unit: 'words' as const, max: index + 10 })),
    ...Array.from({ length: 96 }, (_, index) => ({ unit: 'characters' as const, max: 50 + index * 10 })),
  ]

  it('always keeps the limit, in whole sentences, from the inputs alone', () => {
    for (const limit of limits) {
      const text = draftVariant(input, 'custom', limit)
      if (text === null) continue
      expect(fits(text, limit), `${limit.max} ${limit.unit}`).toBe(true)
      expect(text).toMatch(/[.!?]$/)
    }
  })

  it('writes something real for each format, naming the contact in a letter of inquiry', () => {
    const pitch = draftVariant(input, 'pitch', { unit: 'words', max: 50 })!
    expect(pitch).toContain('Harvest Table Food Bank exists to end hunger in Travis County')
    expect(measure(pitch, 'words')).toBeGreaterThan(25)
    const loi = draftVariant(input, 'loi', { unit: 'words', max: 150 })!
    expect(loi).toContain('please contact Maria Delgado, Executive Director, at maria@harvesttable.org.')
    expect(measure(draftVariant(input, 'social', { unit: 'characters', max: 280 })!, 'characters')).toBeLessThanOrEqual(280)
  })

  it('gives null when no whole sentence fits', () => {
    expect(draftVariant(input, 'custom', { unit: 'words', max: 5 })).toBeNull()
  })
})
