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

function readerLocale(request: Request): string | undefined {
  const header = request.headers.get('accept-language') ?? ''
  return new Negotiator({ headers: { 'accept-language': header } }).languages().find(isKnownLocale)
}

/** 'en' alone reads as en-US, 'fr' as fr-FR: the region Intl assumes for the language. */
export function paperOf(locale: string): Paper {
  const { region } = new Intl.Locale(locale).maximize()
  return region && LETTER_REGIONS.has(region) ? 'letter' : 'a4'
}
