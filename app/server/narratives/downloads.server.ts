import type { Narrative } from '~/server/platform/db.server'
import { formatContacts } from '~/shared/contacts'
import {
  fullTitle,
  narrativeFileName,
  narrativeTitle,
  type DocumentTitle,
  type NarrativeDocxOptions,
} from '~/server/narratives/docx.server'
import type { LocaleSettings } from '~/shared/locale'
import { getEnv } from '~/server/platform/env.server'
import { RefusedError, refusalResponse } from '~/server/platform/refused-error.server'
import { runWork } from '~/server/platform/work-pool.server'
import type { VariantWithNarrative } from '~/server/narratives/variants.server'
import type { Application } from '~/server/narratives/application.server'
import { cleanText } from '~/shared/text'
import { unitLabel, VARIANT_FORMAT_DETAILS, type VariantFormat } from '~/shared/variant-limits'

// A narrative or variant as Word or PDF (docs/spec.md#word-and-pdf-downloads), built in the work pool: its cost grows with the text.

const TYPES = { docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', pdf: 'application/pdf' } as const
export type DownloadKind = keyof typeof TYPES

/** Who asks for a file, and their request's signal: the file is built in the work pool on their behalf. */
export type Asker = { userId: string; signal: AbortSignal }

/** A saved narrative: its text (or, with none, its inputs), then its contacts and website. */
export function narrativeDownload(
  kind: DownloadKind,
  narrative: Narrative,
  documentLocale: LocaleSettings,
  asker: Asker,
  timeZone?: string,
) {
  const title = forFunder(narrativeTitle(narrative.company, narrative.createdAt, { ...documentLocale, timeZone }), narrative.funderName)
  return download(kind, title, asker, {
    documentLocale,
    narrative: narrative.generatedNarrative,
    title,
    company: narrative.company,
    engine: narrative.engine,
    contacts: formatContacts(narrative),
    website: narrative.website,
    sections: {
      missionStatement: narrative.missionStatement,
      targetPopulation: narrative.targetAudience,
      geographicFocus: narrative.geographicFocus,
      keyActivities: narrative.keyPrograms,
      keyAchievements: narrative.impactMetrics,
      successStory: narrative.successStory,
    },
  })
}

/** A variant: its text alone, under the narrative's title and the variant's format. */
export function variantDownload(
  kind: DownloadKind,
  variant: VariantWithNarrative,
  documentLocale: LocaleSettings,
  asker: Asker,
  timeZone?: string,
) {
  const { company, funderName } = variant.narrative
  const format = variant.question !== null ? 'Answer' : (VARIANT_FORMAT_DETAILS[variant.format as VariantFormat]?.label ?? 'Variant')
  const dated = forFunder(narrativeTitle(company, variant.createdAt, { ...documentLocale, timeZone }), funderName)
  const title = { ...dated, title: `${dated.title} (${format})` }
  return download(kind, title, asker, { documentLocale, narrative: variant.text, title, company, engine: variant.engine })
}

/** What a request for the application's file asks: the statement with `statement=1`, the date in `tz`. */
export function applicationFileOptions(url: URL, documentLocale: LocaleSettings) {
  return { documentLocale, withStatement: url.searchParams.get('statement') === '1', timeZone: url.searchParams.get('tz') ?? undefined }
}

/** The whole application (docs/decisions/054): each question with its answer and count, the narrative, the contacts. */
export function applicationDownload(
  kind: DownloadKind,
  application: Application,
  { documentLocale, withStatement, timeZone }: { documentLocale: LocaleSettings; withStatement: boolean; timeZone?: string },
  asker: Asker,
) {
  const dated = narrativeTitle(application.company, new Date(), { ...documentLocale, timeZone })
  const title = { ...dated, title: `${cleanText(application.company)} Application to ${application.funder.name}` }
  const answers = application.questions.map(({ text, limit, answer }) => ({
    question: text,
    answer: answer?.text ?? '',
    count: `${answer?.count ?? 0} of ${limit.max} ${unitLabel(limit)}`,
  }))
  const statement = withStatement ? (application.disclosure ?? undefined) : undefined
  return download(kind, title, asker, {
    documentLocale,
    narrative: application.narrative.text,
    title,
    company: application.company,
    engine: application.engine,
    contacts: application.contacts,
    website: application.website,
    application: { answers, statement },
  })
}

/** A narrative written for a funder is titled for it: "Harvest Table Food Bank Impact Narrative for the Lane Fund". */
function forFunder(title: DocumentTitle, funderName: string | null): DocumentTitle {
  return funderName ? { ...title, title: `${title.title} for ${funderName}` } : title
}

async function download(kind: DownloadKind, title: DocumentTitle, { userId, signal }: Asker, content: NarrativeDocxOptions) {
  const env = getEnv()
  const options: NarrativeDocxOptions = { ...content, credit: env.documentCredit, link: env.appOrigin }
  const bytes = await runWork<Uint8Array<ArrayBuffer>>(kind === 'pdf' ? 'narrative-pdf' : 'narrative-docx', options, {
    signal,
    owner: userId,
    tooMuch: `The ${kind === 'pdf' ? 'PDF' : 'Word file'} took too long to build. Shorten the text, or copy it instead.`,
  })
  return new Response(bytes, {
    headers: {
      'Content-Type': TYPES[kind],
      'Content-Disposition': `attachment; filename="${narrativeFileName(fullTitle(title), kind)}"`,
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'private, no-store',
    },
  })
}

/** The downloads are plain links: a refusal (too many a minute, a file that overran the pool) is a plain page, with when to retry. */
export async function downloadForPage(answer: () => Promise<Response>): Promise<Response> {
  try {
    return await answer()
  } catch (error) {
    if (!(error instanceof RefusedError)) throw error
    return refusalResponse(error, 'text')
  }
}

export function downloadKindOf(url: URL): DownloadKind {
  return url.pathname.endsWith('/pdf') ? 'pdf' : 'docx'
}
