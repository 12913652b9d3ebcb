import { cleanName, cleanText, countWords } from '~/shared/text'
import { NarrativeTextSchema } from '~/shared/narrative-text'
import { ProfileNameSchema } from '~/shared/auth-schemas'
import { NarrativeInputSchema, LONG_TEXT_MAX, SHORT_TEXT_MAX } from '~/shared/narrative-schema'
import { SignupSchema } from '~/shared/auth-schemas'

describe('cleanText', () => {
  it('normalises to NFC', () => {
    const decomposed = 'Cafe\u0301'
    expect(cleanText(decomposed)).toBe('Caf\u00e9')
  })

  it('removes NUL, other control characters and bidirectional overrides, keeping new lines', () => {
    expect(cleanText('Ac\u0000me\u202E\u2066 Co\u0007')).toBe('Acme Co')
    expect(cleanText('line one\nline two\ttabbed')).toBe('line one\nline two\ttabbed')
  })
})

describe('invisible characters', () => {
  const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}' // man, ZWJ, woman, ZWJ, girl: one emoji
  const HEART = '\u2764\uFE0F' // a heart with its emoji variation selector
  const SCOTLAND = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}' // a flag made with tag characters
  const PERSIAN = 'می\u200Cخواهم' // "I want", whose zero-width non-joiner keeps two letters apart

  it('removes zero-width spaces, bidirectional marks, tags and other invisible characters from text', () => {
    expect(cleanText('Ac\u200Bme\u2060 Co\uFEFF')).toBe('Acme Co')
    expect(cleanText('pay\u202Egnp.exe\u200E\u061C')).toBe('paygnp.exe')
    expect(cleanText('hidden\u{E0041}\u{E0042} tags')).toBe('hidden tags')
    expect(cleanText('C1\u0085 and DEL\u007F')).toBe('C1 and DEL')
  })

  it('keeps the joiners, variation selectors and tag sequences that scripts and emoji are made of', () => {
    for (const text of [FAMILY, HEART, SCOTLAND, PERSIAN]) expect(cleanText(`We ${text} it`)).toBe(`We ${text} it`)
  })

  it('makes a text with half a character well-formed', () => {
    expect(cleanText('x \ud800 y \udc00')).toBe('x \uFFFD y \uFFFD')
    expect(cleanText('a whole one: \u{1F600}')).toBe('a whole one: \u{1F600}')
  })

  it('strips every invisible character from a name, so a look-alike reads as what it shows', () => {
    expect(cleanName('admin\u200B')).toBe('admin')
    expect(cleanName('\u200B\u200B')).toBe('')
    expect(cleanName(`Ana ${HEART}`)).toBe('Ana \u2764')
  })

  it('refuses a name with nothing to see, and takes one with a visible character', () => {
    expect(ProfileNameSchema.safeParse({ firstName: '\u200B\u200B', lastName: 'Doe' }).success).toBe(false)
    expect(ProfileNameSchema.safeParse({ firstName: '\u0301', lastName: 'Doe' }).success).toBe(false)
    expect(ProfileNameSchema.parse({ firstName: 'admin\u200B', lastName: 'Doe' }).firstName).toBe('admin')
    const organisation = NarrativeInputSchema.safeParse({ ...valid, company: '\u2060\u200D' })
    expect(organisation.success).toBe(false)
  })

  it("cleans a narrative's text the same way, keeping its line breaks", () => {
    const parsed = NarrativeTextSchema.parse({ generatedNarrative: `One\r\nTwo \u202Eevil\u{E0001} ${FAMILY}\n\nThree` })
    expect(parsed.generatedNarrative).toBe(`One\nTwo evil ${FAMILY}\n\nThree`)
  })
})

describe('countWords', () => {
  it('counts words across spaces and new lines', () => {
    expect(countWords('')).toBe(0)
    expect(countWords('  one two\n\nthree ')).toBe(3)
    expect(countWords('a\u00a0b\u3000c\td\u2028e')).toBe(5)
    expect(countWords('\u00a0 \t')).toBe(0)
  })
})

const valid = {
  company: 'Acme',
  contactName1: 'Ann',
  contactEmail1: 'ann@acme.org',
  missionStatement: 'Help.',
  keyPrograms: 'Programs.',
  impactMetrics: 'Metrics.',
}

describe('the shared schemas', () => {
  it('cleans names and company before checking them', () => {
    const parsed = NarrativeInputSchema.parse({ ...valid, company: '  Ac\u202Eme\u0000  ' })
    expect(parsed.company).toBe('Acme')
    expect(parsed.selectedTone).toBe('professional')
    const signup = SignupSchema.parse({
      email: ' Ann@Acme.org ',
      firstName: 'A\u0000nn',
      lastName: 'Lee',
      password: 'password 1',
      confirmPassword: 'password 1',
      acceptTerms: true,
    })
    expect(signup).toMatchObject({ email: 'ann@acme.org', firstName: 'Ann' })
  })

  it('caps every field', () => {
    const tooLong = (n: number) => 'x'.repeat(n + 1)
    for (const [field, max] of [
      ['company', SHORT_TEXT_MAX],
      ['contactName1', SHORT_TEXT_MAX],
      ['missionStatement', LONG_TEXT_MAX],
      ['keyPrograms', LONG_TEXT_MAX],
      ['impactMetrics', LONG_TEXT_MAX],
      ['targetAudience', LONG_TEXT_MAX],
      ['geographicFocus', LONG_TEXT_MAX],
      ['website', 500],
      ['contactPhone1', 50],
    ] as const) {
      const result = NarrativeInputSchema.safeParse({ ...valid, [field]: tooLong(max) })
      expect(result.success, field).toBe(false)
    }
  })

  it('refuses a bad secondary email but accepts none', () => {
    expect(NarrativeInputSchema.safeParse({ ...valid, contactEmail2: 'nope' }).success).toBe(false)
    expect(NarrativeInputSchema.safeParse(valid).success).toBe(true)
  })
})
