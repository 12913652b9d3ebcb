import { z } from 'zod'
import { measure, unitLabel, type Limit } from '~/shared/variant-limits'

// An answer to one of the call's questions, written or corrected by a person (docs/decisions/054).

/** Where a text stands in the application: the narrative, or the answer to the question at this place. */
export type Place = number | null

export type Conflict = {
  /** The figure as this text says it, with what it counts: "210 families". */
  figure: string
  elsewhere: { question: Place; figure: string }[]
  /** What the organisation's own inputs say of it: the figure the texts should match. */
  inputs: string[]
}

/** The longest answer kept, whatever the question allows: 180 KB at 3 bytes a character, within a form's 192 KB. */
export const ANSWER_MAX_CHARACTERS = 60_000

export const AnswerSchema = z.object({
  text: z
    .string({ required_error: 'Write an answer', invalid_type_error: 'text must be a string' })
    .transform((text) => text.replace(/\r\n?/g, '\n').trim())
    .pipe(
      z
        .string()
        .min(1, 'Write an answer')
        .refine(
          (text) => measure(text, { unit: 'characters' }) <= ANSWER_MAX_CHARACTERS,
          `An answer is at most ${ANSWER_MAX_CHARACTERS.toLocaleString('en-US')} characters`,
        ),
    ),
})

/** A question's place, as the page and the API's path say it: digits only. */
export const QuestionPlaceSchema = z
  .string({ required_error: 'Choose a question to answer' })
  .regex(/^\d{1,3}$/, 'Choose a question to answer')
  .transform(Number)

export const AnswerFormSchema = AnswerSchema.extend({ question: QuestionPlaceSchema })

/** "This answer is 1,243 characters without spaces: the question allows 1,200." */
export function overLimitMessage(text: string, limit: Limit): string {
  const count = measure(text, limit).toLocaleString('en-US')
  return `This answer is ${count} ${unitLabel(limit)}: the question allows ${limit.max.toLocaleString('en-US')}. Shorten it before saving.`
}
