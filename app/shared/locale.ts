// No React here: env.server.ts reads this before NODE_ENV is set, and React picks its build when it is first imported.

// How pages and files write for one person (docs/decisions/043), the same on the server, in the browser and in files.

export function isKnownLocale(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf(tag).length > 0
  } catch {
    return false // not a well-formed language tag
  }
}

export const VARIETIES = ['en-US', 'en-GB'] as const
export type Variety = (typeof VARIETIES)[number]
export const DATE_FORMATS = ['day-month-year', 'month-day-year', 'iso'] as const
export type DateFormat = (typeof DATE_FORMATS)[number]
export const CURRENCIES = ['USD', 'GBP', 'EUR', 'CAD', 'AUD', 'NZD'] as const
export type Currency = (typeof CURRENCIES)[number]
export const PAPERS = ['letter', 'a4'] as const
export type Paper = (typeof PAPERS)[number]

export const VARIETY_LABELS: Record<Variety, string> = { 'en-US': 'English (US)', 'en-GB': 'English (UK)' }
export const CURRENCY_LABELS: Record<Currency, string> = {
  USD: 'US dollar (USD)',
  GBP: 'Pound sterling (GBP)',
  EUR: 'Euro (EUR)',
  CAD: 'Canadian dollar (CAD)',
  AUD: 'Australian dollar (AUD)',
  NZD: 'New Zealand dollar (NZD)',
}
export const PAPER_LABELS: Record<Paper, string> = { letter: 'US Letter', a4: 'A4' }

/** What a person chose on /account. Null: from their browser (a date format: as their variety writes dates). */
export type LocaleChoices = { variety: Variety | null; dateFormat: DateFormat | null; currency: Currency | null; paper: Paper | null }
export const NO_CHOICES: LocaleChoices = { variety: null, dateFormat: null, currency: null, paper: null }

/** What pages and files write with: a person's choices, and the browser's (or the operator's) for the rest. */
export type LocaleSettings = {
  /** The language tag figures, and dates unless `dateFormat` says otherwise, are written in. */
  locale: string
  variety: Variety
  dateFormat: DateFormat | null
  currency: Currency
  paper: Paper
}

/** What the product wrote before anyone chose: American English, US dollars, US Letter. */
export const US_ENGLISH: LocaleSettings = { locale: 'en-US', variety: 'en-US', dateFormat: null, currency: 'USD', paper: 'letter' }

const isOneOf =
  <Value extends string>(values: readonly Value[]) =>
  (value: unknown): value is Value =>
    typeof value === 'string' && (values as readonly string[]).includes(value)

/** The choices as stored (any text a row holds): one no longer offered reads as not chosen. */
export function readChoices(row: { languageVariety: unknown; dateFormat: unknown; currency: unknown; paper: unknown }): LocaleChoices {
  return {
    variety: isOneOf(VARIETIES)(row.languageVariety) ? row.languageVariety : null,
    dateFormat: isOneOf(DATE_FORMATS)(row.dateFormat) ? row.dateFormat : null,
    currency: isOneOf(CURRENCIES)(row.currency) ? row.currency : null,
    paper: isOneOf(PAPERS)(row.paper) ? row.paper : null,
  }
}

/** A person's choices over their browser's (`base`); a chosen variety brings its country's currency and paper unless those are chosen. */
export function resolveLocale(choices: LocaleChoices, base: { locale: string; paper: Paper }): LocaleSettings {
  const locale = choices.variety ?? base.locale
  return {
    locale,
    variety: choices.variety ?? varietyOf(base.locale),
    dateFormat: choices.dateFormat,
    currency: choices.currency ?? currencyOf(locale),
    paper: choices.paper ?? (choices.variety ? paperOf(choices.variety) : base.paper),
  }
}

function regionOf(locale: string): string | undefined {
  try {
    return new Intl.Locale(locale).maximize().region
  } catch {
    return undefined
  }
}

const LETTER_REGIONS = new Set(['US', 'CA', 'MX', 'PR', 'PH', 'CL', 'CO', 'VE', 'GT', 'CR', 'PA', 'DO', 'SV', 'NI'])

/** 'en' alone reads as en-US, 'fr' as fr-FR: the region Intl assumes for the language. */
export function paperOf(locale: string): Paper {
  const region = regionOf(locale)
  return region && LETTER_REGIONS.has(region) ? 'letter' : 'a4'
}

// Where English is written with -ize and -or as in the US (Canada writes "organization" too).
const US_SPELLING_REGIONS = new Set(['US', 'CA', 'PH', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM'])

/** English outside the US and Canada is spelled the UK's way; any other language gets the product's own, American. */
export function varietyOf(locale: string): Variety {
  let language: string | undefined
  try {
    language = new Intl.Locale(locale).language
  } catch {
    return 'en-US'
  }
  const region = regionOf(locale)
  return language === 'en' && region !== undefined && !US_SPELLING_REGIONS.has(region) ? 'en-GB' : 'en-US'
}

const EURO_REGIONS = 'AT BE HR CY EE FI FR DE GR IE IT LV LT LU MT NL PT SK SI ES AD MC SM VA ME XK'.split(' ')
const CURRENCY_OF_REGION = new Map<string, Currency>([
  ...['US', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM', 'EC', 'SV'].map((region) => [region, 'USD'] as const),
  ...['GB', 'GG', 'JE', 'IM'].map((region) => [region, 'GBP'] as const),
  ...EURO_REGIONS.map((region) => [region, 'EUR'] as const),
  ['CA', 'CAD'],
  ...['AU', 'CX', 'CC', 'NF'].map((region) => [region, 'AUD'] as const),
  ...['NZ', 'CK', 'NU'].map((region) => [region, 'NZD'] as const),
])

/** The currency of the locale's region, where it is one of those offered; else the US dollar. */
export function currencyOf(locale: string): Currency {
  return CURRENCY_OF_REGION.get(regionOf(locale) ?? '') ?? 'USD'
}

// The labels are written in US English; these are the words of them UK English spells otherwise.
const UK_SPELLINGS: Record<string, string> = {
  organization: 'organisation',
  organizations: 'organisations',
  organizational: 'organisational',
  program: 'programme',
  programs: 'programmes',
  neighborhood: 'neighbourhood',
  neighborhoods: 'neighbourhoods',
}
const US_WORDS = new RegExp(`\\b(?:${Object.keys(UK_SPELLINGS).join('|')})\\b`, 'gi')

/** A label or message of the product (never a person's own text) as the variety spells it. */
export function spell(text: string, variety: Variety): string {
  if (variety === 'en-US') return text
  return text.replace(US_WORDS, (word) => {
    const spelled = UK_SPELLINGS[word.toLowerCase()]
    return /^\p{Lu}/u.test(word) ? spelled.charAt(0).toUpperCase() + spelled.slice(1) : spelled
  })
}

export type DateWriting = Pick<LocaleSettings, 'locale' | 'dateFormat'>

const SHORT_DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' }
const DATE_AND_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }
const LONG_DATE: Intl.DateTimeFormatOptions = { dateStyle: 'long' }
const ISO_PARTS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
}

// An Intl formatter costs far more to build than to use: one per locale, zone and style, keyed by the zone Intl resolved
// (a download's ?tz= is the request's words), and bounded: past its size the cache starts again.
const FORMATTERS_KEPT = 500
const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(locale: string, timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  const zone = knownZone(timeZone)
  const key = `${locale}|${zone}|${JSON.stringify(options)}`
  let format = formatters.get(key)
  if (!format) {
    if (formatters.size >= FORMATTERS_KEPT) formatters.clear()
    format = new Intl.DateTimeFormat(locale, { timeZone: zone, ...options })
    formatters.set(key, format)
  }
  return format
}

/** The zone as Intl names it; one it does not know (the browser's word for it, sent with a download) reads as UTC. */
const zones = new Map<string, string>()
function knownZone(timeZone: string | undefined): string | undefined {
  if (timeZone === undefined) return undefined
  let zone = zones.get(timeZone)
  if (!zone) {
    try {
      zone = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone
    } catch {
      zone = 'UTC'
    }
    if (zones.size >= FORMATTERS_KEPT) zones.clear()
    zones.set(timeZone, zone)
  }
  return zone
}

/** The locale a date is written in: the chosen order's English, else the person's locale. */
function dateLocale({ locale, dateFormat }: DateWriting) {
  if (dateFormat === 'day-month-year') return 'en-GB'
  if (dateFormat === 'month-day-year') return 'en-US'
  return locale
}

function isoDate(value: Date, timeZone: string | undefined, withTime: boolean) {
  const parts = Object.fromEntries(
    formatter('en-US', timeZone, ISO_PARTS)
      .formatToParts(value)
      .map(({ type, value }) => [type, value]),
  )
  const date = `${parts.year}-${parts.month}-${parts.day}`
  return withTime ? `${date} ${parts.hour}:${parts.minute}` : date
}

function write(value: string | Date, timeZone: string | undefined, writing: DateWriting, options: Intl.DateTimeFormatOptions) {
  const date = new Date(value)
  if (writing.dateFormat === 'iso') return isoDate(date, timeZone, options === DATE_AND_TIME)
  return formatter(dateLocale(writing), timeZone, options).format(date)
}

/** "Nov 28, 2026", "28 Nov 2026" or "2026-11-28". Pages render in UTC on the server, then in the reader's zone. */
export function formatDate(value: string | Date, timeZone?: string, writing: DateWriting = US_ENGLISH): string {
  return write(value, timeZone, writing, SHORT_DATE)
}

/** "Nov 28, 2026, 3:04 PM", "28 Nov 2026, 15:04" or "2026-11-28 15:04". */
export function formatDateTime(value: string | Date, timeZone?: string, writing: DateWriting = US_ENGLISH): string {
  return write(value, timeZone, writing, DATE_AND_TIME)
}

/** Written out for a file's title, so 22 November is never read as a month: "November 22, 2026", "22 November 2026". */
export function formatLongDate(value: string | Date, timeZone?: string, writing: DateWriting = US_ENGLISH): string {
  return write(value, timeZone, writing, LONG_DATE)
}

export type MoneyWriting = Pick<LocaleSettings, 'locale' | 'currency'>

const numberFormats = new Map<string, Intl.NumberFormat>()
function numberFormat(locale: string, currency: string | null, whole: boolean) {
  const key = `${locale}|${currency}|${whole}`
  let format = numberFormats.get(key)
  if (!format) {
    const digits = { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: whole ? 0 : 2 }
    format = new Intl.NumberFormat(locale, currency ? { style: 'currency', currency, ...digits } : digits)
    numberFormats.set(key, format)
  }
  return format
}

/** An amount in `currency` (an ISO code, a symbol as a call writes it, or none: the person's own), grouped as their locale groups. */
export function formatMoney(amount: number, currency: string | null | undefined, writing: MoneyWriting = US_ENGLISH): string {
  const code = currency?.trim() || writing.currency
  const whole = Number.isInteger(amount)
  if (/^[A-Za-z]{3}$/.test(code)) return numberFormat(writing.locale, code.toUpperCase(), whole).format(amount)
  const figure = numberFormat(writing.locale, null, whole).format(amount)
  return /^\p{Sc}$/u.test(code) ? `${code}${figure}` : `${figure} ${code}`
}

/** A funder's grants: "$5,000 to $25,000", "up to £50,000", "from €1,000", or null. */
export function describeAmounts(
  { amountMin, amountMax, currency }: { amountMin: number | null; amountMax: number | null; currency: string | null },
  writing: MoneyWriting = US_ENGLISH,
) {
  const money = (value: number) => formatMoney(value, currency, writing)
  if (amountMin != null && amountMax != null)
    return amountMin === amountMax ? money(amountMax) : `${money(amountMin)} to ${money(amountMax)}`
  if (amountMax != null) return `up to ${money(amountMax)}`
  if (amountMin != null) return `from ${money(amountMin)}`
  return null
}

/** The amount a narrative asks for, as typed ("$25,000", "£10k"); a bare figure ("25000") in the person's currency. */
export function describeAmountRequested(text: string, writing: MoneyWriting = US_ENGLISH): string {
  const bare = /^\s*(\d{1,3}(?:,\d{3})+|\d+)\s*$/.exec(text)
  return bare ? formatMoney(Number(bare[1].replace(/,/g, '')), null, writing) : text
}
