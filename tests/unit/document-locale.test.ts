import { documentLocale, firstLanguages } from '~/server/narratives/document-locale.server'

const withLanguages = (header: string) => new Request('http://localhost/x', { headers: { 'Accept-Language': header } })

it('reads the locale from the first entries of an Accept-Language header of 2,400 entries', () => {
  const header = ['en-GB', 'fr;q=0.9', ...Array.from({ length: 2_398 }, (_, i) => `x${i.toString(36)};q=0.1`)].join(', ')
  expect(documentLocale(withLanguages(header))).toEqual({ locale: 'en-GB', paper: 'a4' })
  expect(firstLanguages(header).split(',')).toHaveLength(8)
})

it('keeps a browser’s ordinary header whole, and reads none of an entry cut by the length cap', () => {
  expect(firstLanguages('fr-CA,fr;q=0.9,en;q=0.8')).toBe('fr-CA,fr;q=0.9,en;q=0.8')
  expect(documentLocale(withLanguages('fr-CA,fr;q=0.9,en;q=0.8')).locale).toBe('fr-CA')
  expect(firstLanguages(`en-GB,${'x'.repeat(300)}`)).toBe('en-GB')
})
