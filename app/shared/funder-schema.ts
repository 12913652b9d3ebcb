import { z } from 'zod'
import { cleanName, cleanText, hasVisibleCharacter } from '~/shared/text'
import { cleaned } from '~/shared/cleaned'
import { AMOUNT_REQUESTED_MAX } from '~/shared/for-funder-schema'

// Funder briefs (docs/decisions/030), shared so that the pages check the same rules as the server.

export const FUNDER_LIMITS = {
  name: 200,
  /** About 15,000 words: a call with its guidelines, 30 pages or so. */
  callText: 100_000,
  priorities: 20,
  priority: 300,
  questions: 20,
  question: 1000,
  terms: 30,
  term: 80,
  amountRequested: AMOUNT_REQUESTED_MAX,
  currency: 10,
  /** Briefs one account keeps. */
  saved: 200,
} as const

/** An uploaded call: a Word file, a PDF, text or Markdown, of at most 5 MB (docs/decisions/031). */
export const CALL_FILE_MAX_BYTES = 5 * 1024 * 1024
export const CALL_FILE_TYPES = ['.docx', '.pdf', '.txt', '.md'] as const

/** A call's word limit, or a question's, within what a funder's form ever asks. */
export const LIMIT_BOUNDS = { words: { min: 10, max: 10_000 }, characters: { min: 50, max: 100_000 } } as const
const AMOUNT_MAX = 1_000_000_000_000

export type Priority = { text: string }
/** `withoutSpaces`: the call counts a character limit without spaces; absent, spaces count, as most forms count them. */
export type CallQuestion = { text: string; maxWords?: number; maxCharacters?: number; withoutSpaces?: true }

export type CallReading = {
  name?: string
  priorities: Priority[]
  questions: CallQuestion[]
  maxWords?: number
  deadline?: string
  amountMin?: number
  amountMax?: number
  currency?: string
  terms: string[]
}

const whole = (name: string, { min, max }: { min: number; max: number }) =>
  z
    .number({ invalid_type_error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min.toLocaleString('en-US')}`)
    .max(max, `${name} must be at most ${max.toLocaleString('en-US')}`)

export const FunderNameSchema = z
  .string({ required_error: "The funder's name is required" })
  .pipe(cleaned(FUNDER_LIMITS.name, cleanName))
  .pipe(z.string().refine(hasVisibleCharacter, "The funder's name is required"))

export const CallTextSchema = z
  .string({ required_error: "Paste the call's text or choose a file" })
  .pipe(cleaned(FUNDER_LIMITS.callText))
  .pipe(z.string().min(1, "Paste the call's text or choose a file"))

export const daySchema = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date (YYYY-MM-DD)`)
    .refine(isDay, `${name} must be a date that exists`)

export const DeadlineSchema = daySchema('The deadline')

/** Whether YYYY-MM-DD names a day of the calendar (not "2027-02-30"). */
export function isDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}

const PrioritySchema = z.object({
  text: z.string().pipe(cleaned(FUNDER_LIMITS.priority)).pipe(z.string().min(1, 'A priority cannot be empty')),
})

/** How a form says whether a question's characters count spaces. */
export const SPACES_RULES = ['with', 'without'] as const

const QuestionSchema = z.object({
  text: z.string().pipe(cleaned(FUNDER_LIMITS.question)).pipe(z.string().min(1, 'A question cannot be empty')),
  maxWords: whole('maxWords', LIMIT_BOUNDS.words).optional(),
  maxCharacters: whole('maxCharacters', LIMIT_BOUNDS.characters).optional(),
  withoutSpaces: z.boolean().optional(),
})

const TermSchema = z.string().pipe(cleaned(FUNDER_LIMITS.term)).pipe(z.string().min(1, 'A term cannot be empty'))

const amount = (name: string) => whole(name, { min: 0, max: AMOUNT_MAX })

const BRIEF_FIELDS = {
  priorities: z.array(PrioritySchema).max(FUNDER_LIMITS.priorities, `At most ${FUNDER_LIMITS.priorities} priorities`),
  questions: z.array(QuestionSchema).max(FUNDER_LIMITS.questions, `At most ${FUNDER_LIMITS.questions} questions`),
  terms: z.array(TermSchema).max(FUNDER_LIMITS.terms, `At most ${FUNDER_LIMITS.terms} terms`),
  maxWords: whole('maxWords', LIMIT_BOUNDS.words).nullable(),
  deadline: DeadlineSchema.nullable(),
  amountMin: amount('amountMin').nullable(),
  amountMax: amount('amountMax').nullable(),
  currency: cleaned(FUNDER_LIMITS.currency).nullable(),
}

/** The API names its fields; the form, its labels. */
const amountsInOrder =
  (message = 'amountMin must not be more than amountMax') =>
  (value: { amountMin?: number | null; amountMax?: number | null }, context: z.RefinementCtx) => {
    if (value.amountMin != null && value.amountMax != null && value.amountMin > value.amountMax)
      context.addIssue({ code: 'custom', path: ['amountMin'], message })
  }

export const FunderCreateSchema = z
  .object({ name: FunderNameSchema, callText: CallTextSchema, ...BRIEF_FIELDS })
  .partial({
    priorities: true,
    questions: true,
    terms: true,
    maxWords: true,
    deadline: true,
    amountMin: true,
    amountMax: true,
    currency: true,
  })
  .superRefine(amountsInOrder())

/** `PUT /api/funders/{id}`: null clears a value. */
export const FunderUpdateSchema = z
  .object({ name: FunderNameSchema, callText: CallTextSchema, ...BRIEF_FIELDS })
  .partial()
  .superRefine(amountsInOrder())

export type FunderCreate = z.infer<typeof FunderCreateSchema>
export type FunderUpdate = z.infer<typeof FunderUpdateSchema>

export const ExtractRequestSchema = z.object({ text: CallTextSchema })

/** An answer of a model asked to read a call: checked before anything of it is used, and bounded like a person's. */
export const CallReadingSchema = z.object({
  name: z.string().pipe(cleaned(FUNDER_LIMITS.name, cleanName)).optional().catch(undefined),
  priorities: z.array(PrioritySchema).max(FUNDER_LIMITS.priorities),
  questions: z
    .array(
      QuestionSchema.extend({
        maxWords: QuestionSchema.shape.maxWords.catch(undefined),
        maxCharacters: QuestionSchema.shape.maxCharacters.catch(undefined),
        withoutSpaces: QuestionSchema.shape.withoutSpaces.catch(undefined),
      }),
    )
    .max(FUNDER_LIMITS.questions)
    .transform((questions) => questions.map(callQuestion)),
  maxWords: whole('maxWords', LIMIT_BOUNDS.words).optional().catch(undefined),
  deadline: DeadlineSchema.optional().catch(undefined),
  amountMin: amount('amountMin').optional().catch(undefined),
  amountMax: amount('amountMax').optional().catch(undefined),
  currency: cleaned(FUNDER_LIMITS.currency).optional().catch(undefined),
  terms: z.array(TermSchema).max(FUNDER_LIMITS.terms),
})

// The pages' forms: plain HTML, so lists are repeated fields and numbers arrive as text (conform coerces).

const optionalWhole = (name: string, bounds: { min: number; max: number }) => whole(name, bounds).optional()

/** The form that adds a brief: the file, when one is chosen, is read by the action beside these. */
export const FunderAddFormSchema = z.object({
  name: FunderNameSchema,
  callText: cleaned(FUNDER_LIMITS.callText).optional(),
  // Checked in the browser too, so a file past the body cap is never sent: the cap's answer would lose the form.
  file: z
    .custom<File>((value) => typeof File !== 'undefined' && value instanceof File)
    .refine((file) => file.size <= CALL_FILE_MAX_BYTES, `The file is larger than ${CALL_FILE_MAX_BYTES / 1024 / 1024} MB.`)
    .optional(),
  deadline: DeadlineSchema.optional(),
})

/** The most characters the "Add priorities" box takes: every priority a brief can hold, at its longest, one a line. */
export const NEW_PRIORITIES_MAX = FUNDER_LIMITS.priorities * (FUNDER_LIMITS.priority + 2)

/** The form that corrects what was understood; moving a priority has its own form (`PriorityMoveFormSchema`). */
const EditFormFields = z.object({
  name: FunderNameSchema,
  deadline: DeadlineSchema.optional(),
  amountMin: amount('The smallest grant').optional(),
  amountMax: amount('The largest grant').optional(),
  currency: cleaned(FUNDER_LIMITS.currency).optional(),
  maxWords: optionalWhole('The word limit', LIMIT_BOUNDS.words),
  // One more than a brief holds: a page opened before the box replaced the blank row sends that row too.
  priorities: z
    .array(cleaned(FUNDER_LIMITS.priority).optional())
    .max(FUNDER_LIMITS.priorities + 1)
    .default([]),
  newPriorities: z
    .string()
    .max(
      NEW_PRIORITIES_MAX,
      `A brief holds at most ${FUNDER_LIMITS.priorities} priorities of ${FUNDER_LIMITS.priority} characters: this is longer than all of them together (${NEW_PRIORITIES_MAX.toLocaleString('en-US')} characters)`,
    )
    .transform((value) => value.replace(/\r\n?/g, '\n'))
    .optional(),
  questionText: z
    .array(cleaned(FUNDER_LIMITS.question).optional())
    .max(FUNDER_LIMITS.questions + 1)
    .default([]),
  questionMaxWords: z
    .array(optionalWhole("A question's word limit", LIMIT_BOUNDS.words))
    .max(FUNDER_LIMITS.questions + 1)
    .default([]),
  questionMaxCharacters: z
    .array(optionalWhole("A question's character limit", LIMIT_BOUNDS.characters))
    .max(FUNDER_LIMITS.questions + 1)
    .default([]),
  questionSpaces: z
    .array(z.enum(SPACES_RULES).optional())
    .max(FUNDER_LIMITS.questions + 1)
    .default([]),
  terms: cleaned(FUNDER_LIMITS.terms * (FUNDER_LIMITS.term + 2)).optional(),
  removePriority: z.array(z.number().int().min(0)).max(FUNDER_LIMITS.priorities).default([]),
  removeQuestion: z.array(z.number().int().min(0)).max(FUNDER_LIMITS.questions).default([]),
})
type EditForm = z.infer<typeof EditFormFields>

export const FunderEditFormSchema = EditFormFields.superRefine(
  amountsInOrder('The smallest grant must not be more than the largest'),
).superRefine(prioritiesAddable)

function sameText(text: string) {
  return text.replace(/\s+/g, ' ').toLowerCase()
}

/** The priorities an edit form keeps and adds; lines skipped as repeats (`skipped`) or refused as too long (`tooLong`), by line number. */
export function prioritiesOfEditForm(value: Pick<EditForm, 'priorities' | 'removePriority' | 'newPriorities'>) {
  // Read defensively: a refinement sees the values of a form with errors elsewhere too.
  const rows = Array.isArray(value.priorities) ? value.priorities : []
  const removed = Array.isArray(value.removePriority) ? value.removePriority : []
  const kept = rows
    .filter((text, index): text is string => typeof text === 'string' && text !== '' && !removed.includes(index))
    .slice(0, FUNDER_LIMITS.priorities)
  const seen = new Set(kept.map(sameText))
  const added: string[] = []
  const skipped: string[] = []
  const tooLong: { line: number; length: number }[] = []
  const lines = typeof value.newPriorities === 'string' ? value.newPriorities.split('\n') : []
  lines.forEach((line, index) => {
    const text = cleanText(line)
    if (!text) return
    if (text.length > FUNDER_LIMITS.priority) tooLong.push({ line: index + 1, length: text.length })
    else if (seen.has(sameText(text))) skipped.push(text)
    else {
      seen.add(sameText(text))
      added.push(text)
    }
  })
  return { kept, added, skipped, tooLong }
}

/** Lines past a limit are refused, all of them, and nothing is saved: never some of the lines and not others. */
function prioritiesAddable(value: EditForm, context: z.RefinementCtx) {
  const { kept, added, tooLong } = prioritiesOfEditForm(value)
  for (const { line, length } of tooLong)
    context.addIssue({
      code: 'custom',
      path: ['newPriorities'],
      message: `Line ${line} is ${length.toLocaleString('en-US')} characters long; a priority can be at most ${FUNDER_LIMITS.priority}. Shorten it or split it in two.`,
    })
  if (kept.length + added.length <= FUNDER_LIMITS.priorities) return
  const room = Math.max(0, FUNDER_LIMITS.priorities - kept.length)
  context.addIssue({
    code: 'custom',
    path: ['newPriorities'],
    message: `A brief holds at most ${FUNDER_LIMITS.priorities} priorities: with the ${kept.length} above, ${room === 0 ? 'no more fit' : room === 1 ? '1 more fits' : `${room} more fit`}, and these lines add ${added.length}. Add fewer, or remove some above first.`,
  })
}

export type QuestionInput = z.infer<typeof QuestionSchema>

/** A question as stored: only the limits it has, and `withoutSpaces` only of a character limit. */
export function callQuestion({ text, maxWords, maxCharacters, withoutSpaces }: QuestionInput): CallQuestion {
  return {
    text,
    ...(maxWords ? { maxWords } : {}),
    ...(maxCharacters ? { maxCharacters, ...(withoutSpaces ? { withoutSpaces: true as const } : {}) } : {}),
  }
}

/** The corrected brief a FunderEditForm describes: rows left empty are dropped, terms are one a line. */
export function briefFromEditForm(value: EditForm) {
  const questions: CallQuestion[] = []
  value.questionText.forEach((text, index) => {
    if (!text || value.removeQuestion.includes(index)) return
    const maxWords = value.questionMaxWords[index]
    const maxCharacters = value.questionMaxCharacters[index]
    const withoutSpaces = value.questionSpaces[index] === 'without'
    questions.push(callQuestion({ text, maxWords, maxCharacters, withoutSpaces }))
  })
  const { kept, added } = prioritiesOfEditForm(value)
  return {
    name: value.name,
    deadline: value.deadline ?? null,
    amountMin: value.amountMin ?? null,
    amountMax: value.amountMax ?? null,
    currency: value.currency || null,
    maxWords: value.maxWords ?? null,
    priorities: [...kept, ...added].slice(0, FUNDER_LIMITS.priorities).map((text) => ({ text })),
    questions: questions.slice(0, FUNDER_LIMITS.questions),
    terms: [...new Set((value.terms ?? '').split(/[\n,;]+/).map((term) => term.trim().slice(0, FUNDER_LIMITS.term)))]
      .filter(Boolean)
      .slice(0, FUNDER_LIMITS.terms),
  }
}

/** Moving one priority a place, saved at once; it names the priority as the page showed it, so a list changed since moves nothing. */
export const PriorityMoveFormSchema = z.object({
  index: z
    .number()
    .int()
    .min(0)
    .max(FUNDER_LIMITS.priorities - 1),
  direction: z.enum(['up', 'down']),
  // A browser sends a value's line ends as CRLF; a priority keeps LF.
  priority: z
    .string()
    .max(FUNDER_LIMITS.priority * 2)
    .transform((value) => value.replace(/\r\n?/g, '\n')),
})

export type PriorityMove = z.infer<typeof PriorityMoveFormSchema>
