import { documentLocale, localeSettings } from '~/server/narratives/document-locale.server'
import { narrativeTitle } from '~/server/narratives/docx.server'
import { resetEnvForTests } from '~/server/platform/env.server'
import {
  currencyOf,
  describeAmountRequested,
  describeAmounts,
  formatDate,
  formatDateTime,
  formatLongDate,
  formatMoney,
  NO_CHOICES,
  readChoices,
  resolveLocale,
  spell,
  US_ENGLISH,
  varietyOf,
  type LocaleSettings,
} from '~/shared/locale'

// One home for how pages and files write for a person (docs/decisions/043): dates, money, paper and the
// words US and UK English spell apart, from their choices over their browser's.

const UK: LocaleSettings = { locale: 'en-GB', variety: 'en-GB', dateFormat: null, currency: 'GBP', paper: 'a4' }
const LATE_EVENING = '2026-11-28T23:30:00Z'

describe('dates', () => {
  it('writes a date as the variety does, or in the order the person chose, or as ISO 8601', () => {
    expect(formatDate(LATE_EVENING, 'UTC')).toBe('Nov 28, 2026')
    expect(formatDate(LATE_EVENING, 'UTC', UK)).toBe('28 Nov 2026')
    expect(formatDate(LATE_EVENING, 'UTC', { ...UK, dateFormat: 'month-day-year' })).toBe('Nov 28, 2026')
    expect(formatDate(LATE_EVENING, 'UTC', { ...US_ENGLISH, dateFormat: 'day-month-year' })).toBe('28 Nov 2026')
    expect(formatDate(LATE_EVENING, 'UTC', { ...UK, dateFormat: 'iso' })).toBe('2026-11-28')
  })

  it('writes the time with the date: 12-hour in the US, 24-hour in the UK and in ISO 8601', () => {
    expect(formatDateTime(LATE_EVENING, 'UTC')).toBe('Nov 28, 2026, 11:30 PM')
    expect(formatDateTime(LATE_EVENING, 'UTC', UK)).toBe('28 Nov 2026, 23:30')
    expect(formatDateTime(LATE_EVENING, 'UTC', { ...US_ENGLISH, dateFormat: 'iso' })).toBe('2026-11-28 23:30')
  })

  it('dates in the reader’s zone, ISO 8601 too, and reads a zone Intl does not know as UTC', () => {
    expect(formatDate(LATE_EVENING, 'Asia/Tokyo', UK)).toBe('29 Nov 2026')
    expect(formatDateTime(LATE_EVENING, 'Asia/Tokyo', { ...UK, dateFormat: 'iso' })).toBe('2026-11-29 08:30')
    expect(formatDate(LATE_EVENING, 'Not/A_Zone', UK)).toBe('28 Nov 2026')
  })

  it('writes a file’s date out, so its day is never read as a month', () => {
    expect(formatLongDate(LATE_EVENING, 'UTC')).toBe('November 28, 2026')
    expect(formatLongDate(LATE_EVENING, 'UTC', UK)).toBe('28 November 2026')
    expect(formatLongDate(LATE_EVENING, 'UTC', { ...UK, dateFormat: 'iso' })).toBe('2026-11-28')
    // A browser in another language, nothing chosen: its own words, as the files always were.
    expect(formatLongDate(LATE_EVENING, 'UTC', { locale: 'fr-CA', dateFormat: null })).toBe('28 novembre 2026')
  })
})

describe('money', () => {
  it('writes an amount without a currency in the person’s, grouped as their locale groups it', () => {
    expect(formatMoney(25_000, null)).toBe('$25,000')
    expect(formatMoney(25_000, null, UK)).toBe('£25,000')
    expect(formatMoney(25_000, '', { locale: 'en-US', currency: 'EUR' })).toBe('€25,000')
    expect(formatMoney(1_500.5, null, UK)).toBe('£1,500.50')
  })

  it('keeps a funder’s own currency: a code in the reader’s words, a symbol as the call writes it', () => {
    expect(formatMoney(50_000, 'EUR', UK)).toBe('€50,000')
    // A pound-writer is told which dollars.
    expect(formatMoney(50_000, 'USD', UK)).toBe('US$50,000')
    expect(formatMoney(50_000, 'cad', US_ENGLISH)).toBe('CA$50,000')
    expect(formatMoney(50_000, '$', UK)).toBe('$50,000')
    expect(formatMoney(50_000, 'dollars', UK)).toBe('50,000 dollars')
  })

  it('describes a brief’s grants in the call’s currency, else the person’s', () => {
    expect(describeAmounts({ amountMin: 5_000, amountMax: 25_000, currency: '$' }, UK)).toBe('$5,000 to $25,000')
    expect(describeAmounts({ amountMin: null, amountMax: 50_000, currency: null }, UK)).toBe('up to £50,000')
    expect(describeAmounts({ amountMin: null, amountMax: 50_000, currency: null }, US_ENGLISH)).toBe('up to $50,000')
    expect(describeAmounts({ amountMin: 1_000, amountMax: null, currency: 'EUR' })).toBe('from €1,000')
    expect(describeAmounts({ amountMin: 7_000, amountMax: 7_000, currency: '£' })).toBe('£7,000')
    expect(describeAmounts({ amountMin: null, amountMax: null, currency: '£' })).toBeNull()
  })

  it('shows an amount requested as typed, and a bare figure in the person’s currency', () => {
    expect(describeAmountRequested('$25,000', UK)).toBe('$25,000')
    expect(describeAmountRequested('£10k over two years', US_ENGLISH)).toBe('£10k over two years')
    expect(describeAmountRequested('25000', UK)).toBe('£25,000')
    expect(describeAmountRequested('25,000', US_ENGLISH)).toBe('$25,000')
  })
})

describe('words', () => {
  it('spells the product’s labels the UK way for en-GB, keeping their capitals, and leaves en-US as written', () => {
    expect(spell('Organization Name', 'en-GB')).toBe('Organisation Name')
    expect(spell('Organization Name is required', 'en-GB')).toBe('Organisation Name is required')
    expect(spell("The organization's inputs", 'en-GB')).toBe("The organisation's inputs")
    expect(spell('Key Programs and Services', 'en-GB')).toBe('Key Programmes and Services')
    expect(spell('Organization Name', 'en-US')).toBe('Organization Name')
    // Whole words only.
    expect(spell('Reorganizations', 'en-GB')).toBe('Reorganizations')
  })

  it('titles a file without a company as the variety spells it', () => {
    const date = new Date(LATE_EVENING)
    expect(narrativeTitle(undefined, date).title).toBe('Organization Impact Narrative')
    expect(narrativeTitle(undefined, date, { locale: 'en-GB' }).title).toBe('Organisation Impact Narrative')
    expect(narrativeTitle(undefined, date, { ...US_ENGLISH, variety: 'en-GB' }).title).toBe('Organisation Impact Narrative')
    expect(narrativeTitle('Acme', date, { ...US_ENGLISH, dateFormat: 'iso' }).date).toBe('2026-11-28')
  })
})

describe('what a person chose, over their browser', () => {
  it('reads the variety, currency and paper of a browser’s language', () => {
    expect(['en-US', 'en', 'en-CA', 'en-PH', 'fr-FR', 'de', 'es-MX'].map(varietyOf)).toEqual(Array(7).fill('en-US'))
    expect(['en-GB', 'en-AU', 'en-NZ', 'en-IE', 'en-KE', 'en-IN'].map(varietyOf)).toEqual(Array(6).fill('en-GB'))
    expect(['en-US', 'en-GB', 'fr-FR', 'en-IE', 'en-CA', 'fr-CA', 'en-AU', 'en-NZ', 'en-IN', 'de'].map(currencyOf)).toEqual([
      'USD',
      'GBP',
      'EUR',
      'EUR',
      'CAD',
      'CAD',
      'AUD',
      'NZD',
      'USD',
      'EUR',
    ])
  })

  it('takes from the browser what the person left unchosen', () => {
    expect(resolveLocale(NO_CHOICES, { locale: 'en-GB', paper: 'a4' })).toEqual(UK)
    expect(resolveLocale(NO_CHOICES, { locale: 'fr-CA', paper: 'letter' })).toEqual({
      locale: 'fr-CA',
      variety: 'en-US',
      dateFormat: null,
      currency: 'CAD',
      paper: 'letter',
    })
  })

  it('puts each choice over the browser, and a chosen variety brings its country’s currency and paper', () => {
    const american = { locale: 'en-US', paper: 'letter' } as const
    expect(resolveLocale({ ...NO_CHOICES, variety: 'en-GB' }, american)).toEqual(UK)
    expect(resolveLocale({ variety: 'en-GB', dateFormat: 'iso', currency: 'EUR', paper: 'letter' }, american)).toEqual({
      ...UK,
      dateFormat: 'iso',
      currency: 'EUR',
      paper: 'letter',
    })
    expect(resolveLocale({ ...NO_CHOICES, paper: 'a4', currency: 'NZD' }, american)).toEqual({
      ...US_ENGLISH,
      paper: 'a4',
      currency: 'NZD',
    })
  })

  it('reads a stored choice no longer offered as none', () => {
    expect(readChoices({ languageVariety: 'en-GB', dateFormat: 'iso', currency: 'GBP', paper: 'a4' })).toEqual({
      variety: 'en-GB',
      dateFormat: 'iso',
      currency: 'GBP',
      paper: 'a4',
    })
    expect(readChoices({ languageVariety: 'fr-FR', dateFormat: 'dd/mm', currency: 'JPY', paper: 'legal' })).toEqual(NO_CHOICES)
    expect(readChoices({ languageVariety: null, dateFormat: null, currency: null, paper: null })).toEqual(NO_CHOICES)
  })
})

describe('the operator’s DOCUMENT_LOCALE and DOCUMENT_PAPER', () => {
  const saved = { ...process.env }
  afterEach(() => {
    for (const key of ['DOCUMENT_LOCALE', 'DOCUMENT_PAPER']) {
      if (saved[key] === undefined) delete process.env[key]
      else process.env[key] = saved[key]
    }
    resetEnvForTests()
  })
  const fromBrowser = (language: string) => new Request('http://localhost/x', { headers: { 'Accept-Language': language } })

  it('stand in for the browser for whoever has not chosen, and give way to what a person chose', () => {
    Object.assign(process.env, { DOCUMENT_LOCALE: 'en-GB', DOCUMENT_PAPER: 'letter' })
    resetEnvForTests()
    expect(documentLocale(fromBrowser('en-US'))).toEqual({ locale: 'en-GB', paper: 'letter' })
    expect(localeSettings(fromBrowser('en-US'), null)).toEqual({ ...UK, paper: 'letter' })
    expect(localeSettings(fromBrowser('en-GB'), { ...NO_CHOICES, variety: 'en-US' })).toEqual(US_ENGLISH)
    expect(localeSettings(fromBrowser('en-GB'), { ...NO_CHOICES, paper: 'a4', dateFormat: 'iso' })).toEqual({ ...UK, dateFormat: 'iso' })
  })

  it('are not needed: unset, the browser decides, then en-US', () => {
    delete process.env.DOCUMENT_LOCALE
    delete process.env.DOCUMENT_PAPER
    resetEnvForTests()
    expect(localeSettings(fromBrowser('en-GB,en;q=0.9'), undefined)).toEqual(UK)
    expect(localeSettings(new Request('http://localhost/x'), null)).toEqual(US_ENGLISH)
  })
})
