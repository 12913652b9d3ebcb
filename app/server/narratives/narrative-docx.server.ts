import type { Narrative } from '@prisma/client'
import { formatContacts } from '~/shared/contacts'
import { buildNarrativeDocx, narrativeFileName, narrativeTitle } from '~/server/narratives/docx.server'
import { getEnv } from '~/server/platform/env.server'
import { isTone } from '~/shared/tones'

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
  return new Response(new Uint8Array(buffer), {
    headers: {
      'Content-Type': DOCX_TYPE,
      'Content-Disposition': `attachment; filename="${narrativeFileName(title)}"`,
      'Content-Length': String(buffer.length),
      'Cache-Control': 'private, no-store',
    },
  })
}
