import type { Token } from '~/server/language/tagger.server'

// The evidence coach's contract (docs/decisions/032): COACH_BOUNDS keep one check to a few milliseconds whatever is pasted.

export type { EvidenceCheck, EvidenceField, EvidenceFlag, EvidenceInput, EvidenceMetric, FlagKind, MetricType } from '~/shared/evidence'

/** A line of a field: its text (cut to MAX_LINE_CHARS) and its tagged words. */
export type Line = { text: string; tokens: Token[] }

/** How much one check reads: the first lines of each field, each cut at a space. */
export const COACH_BOUNDS = {
  metricLines: 30,
  programmes: 12,
  /** Lines of the mission, audience and places read for need statistics. */
  needLines: 12,
  lineChars: 320,
} as const
