import { z } from 'zod'

// Where an application stands, from the first draft to the funder's answer (docs/decisions/051).
export const STAGES = ['drafting', 'in_review', 'submitted', 'awarded', 'declined'] as const
export type Stage = (typeof STAGES)[number]

export const STAGE_LABELS: Record<Stage, string> = {
  drafting: 'Drafting',
  in_review: 'In review',
  submitted: 'Submitted',
  awarded: 'Awarded',
  declined: 'Declined',
}

export const StageSchema = z.enum(STAGES, { errorMap: () => ({ message: `stage must be one of ${STAGES.join(', ')}` }) })

/** The body of a stage change, on the page and the API: missing, not a string or not a stage, the message is the list. */
export const StageChangeSchema = z.object({ stage: StageSchema })

export function isStage(value: unknown): value is Stage {
  return StageSchema.safeParse(value).success
}

export function stageLabel(stage: string): string {
  return isStage(stage) ? STAGE_LABELS[stage] : stage
}
