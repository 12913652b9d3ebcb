import { splitItems } from '~/shared/items'
import { cutAtSpace } from '~/shared/text'
import { shortenRuns, tag } from '~/server/language/tagger.server'
import { metricFlags, needFlags, noOutcomeFlag, programmeFlags } from '~/server/coach/rules.server'
import { typeOf } from '~/server/coach/evidence-types.server'
import { COACH_BOUNDS, type EvidenceCheck, type EvidenceInput, type Line } from '~/server/coach/contract.server'

// The coach's reading of the fields (docs/decisions/032): plain code, bounded by COACH_BOUNDS, run in the work pool.

export function checkEvidence(input: EvidenceInput): EvidenceCheck {
  const metricLines = linesOf(input.impactMetrics, COACH_BOUNDS.metricLines)
  const metrics = metricLines.map((line) => {
    const { type, reason } = typeOf(line)
    return { text: line.text, type, reason, flags: metricFlags(line, type) }
  })
  // A need statistic is asked about wherever it is written; those in the figures are asked about with them.
  const needs = (['missionStatement', 'keyPrograms', 'targetAudience', 'geographicFocus', 'successStory'] as const).flatMap((field) =>
    linesOf(input[field], COACH_BOUNDS.needLines).flatMap((line) => needFlags(line, field)),
  )
  const programmes = linesOf(input.keyPrograms, COACH_BOUNDS.programmes)
  return {
    metrics,
    flags: [...(metricLines.length > 0 ? programmeFlags(programmes, metricLines) : []), ...noOutcomeFlag(metrics), ...needs],
  }
}

function linesOf(value: string | undefined, max: number): Line[] {
  return splitItems(value, max).map((item) => {
    const text = cutAtSpace(shortenRuns(item), COACH_BOUNDS.lineChars, '…')
    return { text, tokens: tag(text) }
  })
}
