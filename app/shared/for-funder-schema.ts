import { z } from 'zod'
import { cleaned } from '~/shared/cleaned'

// The brief a narrative is written for, apart from funder-schema.ts, which the dashboard's JavaScript would otherwise carry.

export const AMOUNT_REQUESTED_MAX = 40

/** The amount a narrative asks for, as its writer puts it ("$25,000", "£10k"). */
export const AmountRequestedSchema = cleaned(AMOUNT_REQUESTED_MAX).pipe(
  z.string().refine((value) => value === '' || /\d/.test(value), 'The amount requested must hold a figure, such as $25,000'),
)

export const ForFunderSchema = z.object({
  funderId: z.string().max(40, 'Choose one of your funder briefs').optional(),
  amountRequested: AmountRequestedSchema.optional(),
})
