import type { Narrative } from '~/server/platform/db.server'
import { getFirstText } from '~/server/narratives/versions.server'
import { aiUseStatement } from '~/shared/disclosure'

/**
 * How a narrative's text was made (docs/decisions/050), for its page and the token API alike; null while it is
 * being written, or when it has no text. The caller has already checked who may read the narrative, and passes
 * the claims it read for the page or the record: without kept claims they are traced again, so once is enough.
 */
export async function disclosureOf(narrative: Narrative, claims: readonly { supported: boolean }[]): Promise<string | null> {
  if (narrative.status === 'generating' || !narrative.generatedNarrative) return null
  return aiUseStatement({
    engine: narrative.engine,
    firstText: await getFirstText(narrative.id),
    currentText: narrative.generatedNarrative,
    claims,
  })
}
