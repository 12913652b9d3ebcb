import Negotiator from 'negotiator'
import { getEnv } from '~/server/platform/env.server'
import { isKnownLocale, NO_CHOICES, paperOf, resolveLocale, type LocaleChoices, type LocaleSettings, type Paper } from '~/shared/locale'

export { paperOf, type Paper }
export type DocumentLocale = { locale: string; paper: Paper }

// Without a usable Accept-Language: what the product printed before it asked.
const FALLBACK_LOCALE = 'en-US'

/**
 * What stands in for a person's choices they have not made (docs/decisions/043): the operator's
 * DOCUMENT_LOCALE and DOCUMENT_PAPER, else the request's Accept-Language, else en-US.
 */
export function documentLocale(request: Request): DocumentLocale {
  const env = getEnv()
  const locale = env.DOCUMENT_LOCALE ?? readerLocale(request) ?? FALLBACK_LOCALE
  return { locale, paper: env.DOCUMENT_PAPER ?? paperOf(locale) }
}

/** How pages and files write for this person: what they chose on /account, then their browser. */
export function localeSettings(request: Request, choices: LocaleChoices | null | undefined): LocaleSettings {
  return resolveLocale(choices ?? NO_CHOICES, documentLocale(request))
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
