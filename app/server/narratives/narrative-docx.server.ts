import type { Narrative } from '@prisma/client'
import { formatContacts } from '~/shared/contacts'
import { buildNarrativeDocx, narrativeFileName, narrativeTitle } from '~/server/narratives/docx.server'
import { getEnv } from '~/server/platform/env.server'
import { isTone } from '~/shared/tones'
import type { VariantWithNarrative } from '~/server/narratives/variants.server'
import { VARIANT_FORMAT_DETAILS, type VariantFormat } from '~/shared/variant-limits'

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

/** A saved narrative as a Word download; `timeZone` dates the title as the reader sees it. */
export async function narrativeDocxResponse(narrative: Narrative, timeZone?: string) {
  const title = narrativeTitle(narrative.company, narrative.createdAt, timeZone)
  const buffer = await buildNarrativeDocx({
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
export async function variantDocxResponse(variant: VariantWithNarrative, timeZone?: string) {
  const { company, tone } = variant.narrative
  const format = VARIANT_FORMAT_DETAILS[variant.format as VariantFormat]?.label ?? 'Variant'
  const title = `${narrativeTitle(company, variant.createdAt, timeZone)} (${format})`
  const buffer = await buildNarrativeDocx({
    narrative: variant.text,
    title,
    company,
    tone: isTone(tone) ? tone : 'professional',
    link: getEnv().appOrigin,
  })
  return docxResponse(buffer, title)
}

function docxResponse(buffer: Buffer, title: string) {
  return new Response(new Uint8Array(buffer), {
    headers: {
      'Content-Type': DOCX_TYPE,
      'Content-Disposition': `attachment; filename="${narrativeFileName(title)}"`,
      'Content-Length': String(buffer.length),
      'Cache-Control': 'private, no-store',
    },
  })
}
