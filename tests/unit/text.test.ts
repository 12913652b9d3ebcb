import { cleanText, countWords } from '~/shared/text'
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

describe('countWords', () => {
  it('counts words across spaces and new lines', () => {
    expect(countWords('')).toBe(0)
    expect(countWords('  one two\n\nthree ')).toBe(3)
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
