import Negotiator from 'negotiator'
import { getEnv } from '~/server/platform/env.server'
import { isKnownLocale } from '~/shared/locale'

export type Paper = 'letter' | 'a4'
/** How a Word file is dated and on which paper it is laid out, for the person downloading it. */
export type DocumentLocale = { locale: string; paper: Paper }

// Without a usable Accept-Language: what the product printed before it asked.
const FALLBACK_LOCALE = 'en-US'

// Where US Letter is the paper in use; the rest of the world uses A4.
const LETTER_REGIONS = new Set(['US', 'CA', 'MX', 'PR', 'PH', 'CL', 'CO', 'VE', 'GT', 'CR', 'PA', 'DO', 'SV', 'NI'])

/** DOCUMENT_LOCALE and DOCUMENT_PAPER when an operator sets them, else the reader's language and region. */
export function documentLocale(request: Request): DocumentLocale {
  const env = getEnv()
  const locale = env.DOCUMENT_LOCALE ?? readerLocale(request) ?? FALLBACK_LOCALE
  return { locale, paper: env.DOCUMENT_PAPER ?? paperOf(locale) }
}

function readerLocale(request: Request): string | undefined {
  const header = request.headers.get('accept-language') ?? ''
  // Most preferred first; '*' and malformed tags are passed over.
  return new Negotiator({ headers: { 'accept-language': header } }).languages().find(isKnownLocale)
}

/** 'en' alone reads as en-US, 'fr' as fr-FR: the region Intl assumes for the language. */
export function paperOf(locale: string): Paper {
  const { region } = new Intl.Locale(locale).maximize()
  return region && LETTER_REGIONS.has(region) ? 'letter' : 'a4'
}
