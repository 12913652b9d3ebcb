import { z } from 'zod'
import { daySchema } from '~/shared/funder-schema'
import { SEARCH_QUERY_MAX } from '~/shared/narrative-schema'
import { TONES } from '~/shared/tones'
import { StageSchema } from '~/shared/stages'

// A list's page, and the narratives' search and filters: one schema for the page and the token API, which
// differ only in what they do with a value that is not one.

/** Past any list's last page, and short enough to stay a safe number. */
const PAGE_MAX = 100_000

/** `?page=` of a page's list: a whole number from 1, anything else the first page. */
export function parsePage(value: string | null) {
  return value && /^\d{1,9}$/.test(value) ? Math.min(Math.max(Number(value), 1), PAGE_MAX) : 1
}

/** When the call closes: within the next 14 days (today included), today or later, before today, or no deadline. */
export const DUE_WINDOWS = ['soon', 'upcoming', 'passed', 'none'] as const
export const DUE_LABELS: Record<(typeof DUE_WINDOWS)[number], string> = {
  soon: 'In the next 14 days',
  upcoming: 'Today or later',
  passed: 'Passed',
  none: 'No deadline',
}
/** How far ahead `due=soon` looks, in days after today. */
export const DUE_SOON_DAYS = 14

/** What the narratives list is narrowed to and ordered by (docs/api.md#calls). */
export const NarrativeFiltersSchema = z.object({
  q: z.string().trim().max(SEARCH_QUERY_MAX, `q must be at most ${SEARCH_QUERY_MAX} characters`).optional(),
  funderId: z.string().max(40).optional(),
  stage: StageSchema.optional(),
  due: z.enum(DUE_WINDOWS, { errorMap: () => ({ message: `due must be one of ${DUE_WINDOWS.join(', ')}` }) }).optional(),
  tone: z.enum(TONES, { errorMap: () => ({ message: `tone must be one of ${TONES.join(', ')}` }) }).optional(),
  from: daySchema('from').optional(),
  to: daySchema('to').optional(),
  sort: z.enum(['newest', 'deadline'], { errorMap: () => ({ message: 'sort must be newest or deadline' }) }).optional(),
})

export type NarrativeFilters = z.infer<typeof NarrativeFiltersSchema>

const FILTERS = NarrativeFiltersSchema.keyof().options

/** The page's form names the funder `funder`; the API, `funderId`. */
const PAGE_NAMES: Partial<Record<keyof NarrativeFilters, string>> = { funderId: 'funder' }

/** The API's `?q=&funderId=&stage=&due=&tone=&from=&to=&sort=`: a value it cannot read refuses the request, with the schema's message. */
export function parseNarrativeFilters(params: URLSearchParams) {
  return NarrativeFiltersSchema.safeParse(
    Object.fromEntries(
      FILTERS.flatMap((name) => {
        const value = params.get(name)
        return value ? [[name, value]] : []
      }),
    ),
  )
}

/** The page's own form (`?funder=`), leniently: too long is cut to its limit, a wrong or empty value left out. */
export function narrativeFiltersOfPage(params: URLSearchParams): NarrativeFilters {
  const filters: Record<string, string> = {}
  for (const name of FILTERS) {
    const value = name === 'q' ? params.get(name)?.trim().slice(0, SEARCH_QUERY_MAX) : params.get(PAGE_NAMES[name] ?? name)
    if (!value || (name === 'sort' && value === 'newest')) continue
    const parsed = NarrativeFiltersSchema.shape[name].safeParse(name === 'funderId' ? value.slice(0, 40) : value)
    if (parsed.success && parsed.data) filters[name] = name === 'q' ? value : parsed.data
  }
  return filters as NarrativeFilters
}

/** The page's address for a list so narrowed, at a page. */
export function narrativeListHref(path: string, filters: NarrativeFilters, page: number) {
  const params = new URLSearchParams()
  for (const name of FILTERS) if (filters[name]) params.set(PAGE_NAMES[name] ?? name, filters[name])
  params.set('page', String(page))
  return `${path}?${params}`
}
