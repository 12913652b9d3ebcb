import { z } from 'zod'
import { NarrativeInputSchema, optionalLong } from '~/shared/narrative-schema'

// The evidence coach's answer (docs/decisions/032), shared by the server and the page; it never blocks a generation.

/** What a line of evidence is to a reviewer: the setting, the need, money received, what went in, what was delivered, what changed. */
export const METRIC_TYPES = ['context', 'need', 'funding', 'input', 'output', 'outcome'] as const
export type MetricType = (typeof METRIC_TYPES)[number]

export const FLAG_KINDS = [
  'no-period',
  'no-baseline',
  'no-denominator',
  'output-as-outcome',
  'vague',
  'need-without-source',
  'programme-without-result',
  'no-outcome',
] as const
export type FlagKind = (typeof FLAG_KINDS)[number]

export const EVIDENCE_FIELDS = [
  'missionStatement',
  'keyPrograms',
  'impactMetrics',
  'targetAudience',
  'geographicFocus',
  'successStory',
] as const
export type EvidenceField = (typeof EVIDENCE_FIELDS)[number]

/** What a reviewer would ask: the words that made the coach ask it, and the shape of a stronger line, in the user's words. */
export type EvidenceFlag = { kind: FlagKind; words: string; suggestion: string; field?: EvidenceField }
export type EvidenceMetric = { text: string; type: MetricType; reason: string; flags: EvidenceFlag[] }
/** A model's own remarks, kept apart from the rules' flags and labelled with the model's name. */
export type SecondOpinion = { engine: string; remarks: string[]; error?: string }
export type EvidenceCheck = { metrics: EvidenceMetric[]; flags: EvidenceFlag[]; secondOpinion?: SecondOpinion }

export const METRIC_TYPE_LABELS: Record<MetricType, string> = {
  need: 'Need',
  funding: 'Funding received',
  input: 'Input',
  output: 'Output',
  outcome: 'Outcome',
  context: 'Context',
}

export const FLAG_LABELS: Record<FlagKind, string> = {
  'no-period': 'No period or year',
  'no-baseline': 'A change with nothing to compare it with',
  'no-denominator': 'A percentage of how many?',
  'output-as-outcome': 'A count presented as a change',
  vague: 'A vague quantity',
  'need-without-source': 'A need statistic without its source, year or place',
  'programme-without-result': 'A programme with no result given',
  'no-outcome': 'No outcome, only activity counts',
}

export const EVIDENCE_FIELD_LABELS: Record<EvidenceField, string> = {
  missionStatement: 'Mission Statement',
  keyPrograms: 'Key Programs and Services',
  impactMetrics: 'Impact Metrics and Achievements',
  targetAudience: 'Target Audience',
  geographicFocus: 'Geographic Focus',
  successStory: 'Success Story or Quote',
}

/** All optional, so the coach can answer while a person types; `secondOpinion` asks the configured model too. */
export const EvidenceCheckSchema = z.object({
  missionStatement: optionalLong,
  keyPrograms: optionalLong,
  impactMetrics: optionalLong,
  targetAudience: optionalLong,
  geographicFocus: optionalLong,
  successStory: NarrativeInputSchema.shape.successStory,
  secondOpinion: z.boolean().optional(),
})
export type EvidenceCheckRequest = z.infer<typeof EvidenceCheckSchema>
export type EvidenceInput = Omit<EvidenceCheckRequest, 'secondOpinion'>

/** Counts of what the coach's answer names: the lines of evidence it read (each shown with its type) and the flags it raised. */
export function coachSummary(check: EvidenceCheck): string {
  const questions = check.metrics.reduce((sum, metric) => sum + metric.flags.length, check.flags.length)
  const lines = check.metrics.length
  if (lines === 0 && questions === 0) return 'No figures to check yet.'
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`
  if (lines === 0) return `${plural(questions, 'question')} a reviewer would ask.`
  const asked = questions === 0 ? 'a reviewer would have no questions about them' : `${plural(questions, 'question')} a reviewer would ask`
  return `${plural(lines, 'line')} of evidence read; ${asked}.`
}
