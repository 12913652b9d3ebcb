import type { Narrative } from '@prisma/client'
import { formatContacts } from '~/shared/contacts'
import { buildNarrativeDocx, fullTitle, narrativeFileName, narrativeTitle, type DocumentTitle } from '~/server/narratives/docx.server'
import type { DocumentLocale } from '~/server/narratives/document-locale.server'
import { getEnv } from '~/server/platform/env.server'
import { isTone } from '~/shared/tones'
import type { VariantWithNarrative } from '~/server/narratives/variants.server'
import { VARIANT_FORMAT_DETAILS, type VariantFormat } from '~/shared/variant-limits'

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

/** A saved narrative as a Word download, dated in the reader's zone and locale and on their paper. */
export async function narrativeDocxResponse(narrative: Narrative, documentLocale: DocumentLocale, timeZone?: string) {
  const title = forFunder(
    narrativeTitle(narrative.company, narrative.createdAt, { locale: documentLocale.locale, timeZone }),
    narrative.funderName,
  )
  const buffer = await buildNarrativeDocx({
    documentLocale,
    narrative: narrative.generatedNarrative,
    title,
    company: narrative.company,
    contacts: formatContacts(narrative),
    website: narrative.website,
    tone: isTone(narrative.tone) ? narrative.tone : 'professional',
    link: getEnv().appOrigin,
    sections: {
      missionStatement: narrative.missionStatement,
      targetPopulation: narrative.targetAudience,
      geographicFocus: narrative.geographicFocus,
      keyActivities: narrative.keyPrograms,
      keyAchievements: narrative.impactMetrics,
    },
  })
  return docxResponse(buffer, title)
}

/** A variant as a Word download: its text alone, under the narrative's title and the variant's format. */
export async function variantDocxResponse(variant: VariantWithNarrative, documentLocale: DocumentLocale, timeZone?: string) {
  const { company, tone, funderName } = variant.narrative
  const format = variant.question !== null ? 'Answer' : (VARIANT_FORMAT_DETAILS[variant.format as VariantFormat]?.label ?? 'Variant')
  const dated = forFunder(narrativeTitle(company, variant.createdAt, { locale: documentLocale.locale, timeZone }), funderName)
  const title = { ...dated, title: `${dated.title} (${format})` }
  const buffer = await buildNarrativeDocx({
    documentLocale,
    narrative: variant.text,
    title,
    company,
    tone: isTone(tone) ? tone : 'professional',
    link: getEnv().appOrigin,
  })
  return docxResponse(buffer, title)
}

/** A narrative written for a funder is titled for it: "Harvest Table Food Bank Impact Narrative for the Lane Fund". */
function forFunder(title: DocumentTitle, funderName: string | null): DocumentTitle {
  return funderName ? { ...title, title: `${title.title} for ${funderName}` } : title
}

function docxResponse(buffer: Buffer, title: DocumentTitle) {
  return new Response(new Uint8Array(buffer), {
    headers: {
      'Content-Type': DOCX_TYPE,
      'Content-Disposition': `attachment; filename="${narrativeFileName(fullTitle(title))}"`,
      'Content-Length': String(buffer.length),
      'Cache-Control': 'private, no-store',
    },
  })
}
