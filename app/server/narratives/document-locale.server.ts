import Negotiator from 'negotiator'
import { getEnv } from '~/server/platform/env.server'
import { isKnownLocale } from '~/shared/locale'

export type Paper = 'letter' | 'a4'
export type DocumentLocale = { locale: string; paper: Paper }

// Without a usable Accept-Language: what the product printed before it asked.
const FALLBACK_LOCALE = 'en-US'

const LETTER_REGIONS = new Set(['US', 'CA', 'MX', 'PR', 'PH', 'CL', 'CO', 'VE', 'GT', 'CR', 'PA', 'DO', 'SV', 'NI'])

export function documentLocale(request: Request): DocumentLocale {
  const env = getEnv()
  const locale = env.DOCUMENT_LOCALE ?? readerLocale(request) ?? FALLBACK_LOCALE
  return { locale, paper: env.DOCUMENT_PAPER ?? paperOf(locale) }
}

// A browser sends a handful of languages: Negotiator's cost grows with the entries (2,400 added 0.15 s
// to a download), so only the first few are read. A preference listed later is not seen.
const LANGUAGES_READ = 8
const HEADER_CHARS_READ = 256

function readerLocale(request: Request): string | undefined {
  const header = firstLanguages(request.headers.get('accept-language') ?? '')
  return new Negotiator({ headers: { 'accept-language': header } }).languages().find(isKnownLocale)
}

export function firstLanguages(header: string) {
  const entries = header.slice(0, HEADER_CHARS_READ).split(',', LANGUAGES_READ + 1)
  // An entry cut by the length cap is not read.
  if (header.length > HEADER_CHARS_READ && entries.length <= LANGUAGES_READ) entries.pop()
  return entries.slice(0, LANGUAGES_READ).join(',')
}

/** 'en' alone reads as en-US, 'fr' as fr-FR: the region Intl assumes for the language. */
export function paperOf(locale: string): Paper {
  const { region } = new Intl.Locale(locale).maximize()
  return region && LETTER_REGIONS.has(region) ? 'letter' : 'a4'
}
