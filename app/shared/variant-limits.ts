import { z } from 'zod'
import { countWords } from '~/shared/text'

// Variants fitted to a portal's limit (docs/decisions/018), shared: the server keeps it, the page counts as the text streams.

export const VARIANT_FORMATS = ['pitch', 'loi', 'social', 'custom'] as const
export type VariantFormat = (typeof VARIANT_FORMATS)[number]
/** `withoutSpaces`: a character limit the funder's form counts without spaces ("1,200 characters, excluding spaces"). */
export type Limit = { unit: 'words' | 'characters'; max: number; withoutSpaces?: true }
type Rule = Pick<Limit, 'unit' | 'withoutSpaces'>

const FIXED_LIMITS: Record<Exclude<VariantFormat, 'custom'>, Limit> = {
  pitch: { unit: 'words', max: 50 },
  loi: { unit: 'words', max: 150 },
  social: { unit: 'characters', max: 280 },
}

export const VARIANT_FORMAT_DETAILS: Record<VariantFormat, { label: string; description: string }> = {
  pitch: { label: 'Pitch', description: 'at most 50 words' },
  loi: { label: 'Letter of inquiry', description: 'one paragraph of at most 150 words' },
  social: { label: 'Social post', description: 'at most 280 characters' },
  custom: { label: 'Custom', description: 'your own limit, in words or characters' },
}

/** Below these no whole sentence that says anything fits; above them the narrative itself (about 2,500 characters) is the better answer. */
export const CUSTOM_LIMITS = { words: { min: 10, max: 1000 }, characters: { min: 50, max: 10_000 } } as const

const limitField = (name: string, { min, max }: { min: number; max: number }) =>
  z
    .number({ invalid_type_error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min.toLocaleString('en-US')}`)
    .max(max, `${name} must be at most ${max.toLocaleString('en-US')}`)
    .optional()

/** A narrative written for a funder's brief can also be fitted to one of the call's questions, by its place in the brief. */
export const QUESTION_FORMAT = 'question'
/** The most questions a brief keeps (FUNDER_LIMITS.questions). */
const QUESTIONS_MAX = 20
const QUESTION_MESSAGE = "Choose one of the call's questions to answer"

/** The API's body and the page's form: each format reads only its own fields, and messages never name the fields. */
export const VariantRequestSchema = z
  .object({
    format: z.enum([...VARIANT_FORMATS, QUESTION_FORMAT], {
      errorMap: () => ({ message: 'Choose a format: pitch, loi, social, custom or question' }),
    }),
    maxWords: z.unknown().optional(),
    maxCharacters: z.unknown().optional(),
    question: z.unknown().optional(),
  })
  .transform(({ format, maxWords, maxCharacters, question }) => ({
    format,
    maxWords: format === 'custom' ? maxWords : undefined,
    maxCharacters: format === 'custom' ? maxCharacters : undefined,
    question: format === QUESTION_FORMAT ? question : undefined,
  }))
  .pipe(
    z
      .object({
        format: z.enum([...VARIANT_FORMATS, QUESTION_FORMAT]),
        maxWords: limitField('The word limit', CUSTOM_LIMITS.words),
        maxCharacters: limitField('The character limit', CUSTOM_LIMITS.characters),
        question: z
          .number({ invalid_type_error: QUESTION_MESSAGE })
          .int(QUESTION_MESSAGE)
          .min(0, QUESTION_MESSAGE)
          .max(QUESTIONS_MAX - 1, QUESTION_MESSAGE)
          .optional(),
      })
      .superRefine(({ format, maxWords, maxCharacters, question }, context) => {
        const given = [maxWords, maxCharacters].filter((value) => value !== undefined).length
        if (format === 'custom' && given !== 1)
          context.addIssue({
            code: 'custom',
            path: ['maxWords'],
            message: 'A custom limit needs a number of words or of characters, not both',
          })
        if (format === QUESTION_FORMAT && question === undefined)
          context.addIssue({ code: 'custom', path: ['question'], message: QUESTION_MESSAGE })
      }),
  )

export type VariantRequest = z.infer<typeof VariantRequestSchema>

/** The limit of a request in one of the fixed formats, or custom; a question's is the question's own (questionLimit). */
export function limitOf({ format, maxWords, maxCharacters }: VariantRequest): Limit {
  if (format === QUESTION_FORMAT) throw new Error("A question's limit is the question's own")
  if (format !== 'custom') return FIXED_LIMITS[format]
  return maxWords === undefined ? { unit: 'characters', max: maxCharacters! } : { unit: 'words', max: maxWords }
}

/** Words as the word count shows them; characters as portals count them: code points, ends trimmed, spaces included unless the rule leaves them out. */
export function measure(text: string, { unit, withoutSpaces }: Rule): number {
  const trimmed = text.trim()
  if (unit === 'words') return countWords(trimmed)
  return codePoints(withoutSpaces ? trimmed.replace(/\s+/g, '') : trimmed)
}

/** "words", "characters", or "characters without spaces": what a count of the rule counts. */
export function unitLabel({ unit, withoutSpaces }: Rule): string {
  return withoutSpaces ? 'characters without spaces' : unit
}

/** A limit as the API gives it: `spaces` says whether spaces count toward it (never for words). */
export function toApiLimit({ unit, max, withoutSpaces }: Limit) {
  return { unit, max, spaces: unit === 'characters' && !withoutSpaces }
}

/** Code points, one for a surrogate pair ("😀"), as `[...text].length` counts them but without the array: cutToLimit counts often. */
function codePoints(text: string): number {
  let count = text.length
  for (let index = 0; index < text.length - 1; index++) {
    if (isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1))) {
      count--
      index++
    }
  }
  return count
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff

export function fits(text: string, limit: Limit): boolean {
  return measure(text, limit) <= limit.max
}

/** The text cut at its last whole sentence (Unicode's: "3.5%" or "e.g. food" ends none) within the limit; null when none fits. */
export function cutToLimit(text: string, limit: Limit): string | null {
  const trimmed = text.trim()
  const ends = [0]
  for (const sentence of sentences(trimmed)) ends.push(ends[ends.length - 1] + sentence.length)
  // A longer start never measures less: halving finds the most whole sentences that fit, where one at a time would be quadratic.
  let low = 0
  let high = ends.length - 1
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (fits(trimmed.slice(0, ends[middle]), limit)) low = middle
    else high = middle - 1
  }
  return trimmed.slice(0, ends[low]).trim() || null
}

/** Titles and initials Unicode's rules take for a sentence's end ("Dr. Okafor", "J. Mwangi"). */
const ABBREVIATION_END = /(?:^|[\s(])(?:Dr|Mr|Mrs|Ms|Mx|Prof|Rev|Sr|Jr|St|Mt|Ft|No|Nos|Vol|Fig|approx|[A-Z])\.\s*$/

/** The text's sentences as the limits count them, each with its trailing space. */
export function sentencesOf(text: string): string[] {
  return [...sentences(text)]
}

/** A run of abbreviations ("Mr. Mr. …") is held at most this long before it is given out as one sentence. */
const SENTENCE_MAX = 1000
/** "approx." and the character before it: all of a sentence's end that ABBREVIATION_END reads. */
const ABBREVIATION_WINDOW = 9

// Only the end of the held text is tested, so the cost stays linear however many segments are held.
export function* sentences(text: string) {
  let pending: string[] = []
  let held = 0
  let tail = ''
  for (const { segment } of sentenceSegmenter().segment(text)) {
    const continues = held > 0 && !segment.trim() ? true : endsInAbbreviation(tail, segment)
    pending.push(segment)
    held += segment.length
    tail = (tail + segment.slice(-ABBREVIATION_WINDOW)).slice(-ABBREVIATION_WINDOW)
    if (!continues || held > SENTENCE_MAX) {
      yield pending.join('')
      pending = []
      held = 0
      tail = ''
    }
  }
  if (held) yield pending.join('')
}

function endsInAbbreviation(before: string, segment: string): boolean {
  let end = segment.length
  while (end > 0 && /\s/.test(segment[end - 1])) end--
  const head = segment.slice(Math.max(0, end - ABBREVIATION_WINDOW), end)
  return ABBREVIATION_END.test(head.length < ABBREVIATION_WINDOW ? (before + head).slice(-ABBREVIATION_WINDOW) : head)
}

let segmenter: Intl.Segmenter | undefined
function sentenceSegmenter() {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' })
  return segmenter
}

/** The limit an answer to a call's question keeps: the question's own, else that of a letter of inquiry. */
export function questionLimit(question: { maxWords?: number; maxCharacters?: number; withoutSpaces?: true }): Limit {
  if (question.maxWords) return { unit: 'words', max: question.maxWords }
  if (question.maxCharacters)
    return { unit: 'characters', max: question.maxCharacters, ...(question.withoutSpaces ? { withoutSpaces: true } : {}) }
  return FIXED_LIMITS.loi
}
