import { z } from 'zod'
import { cleanName, cleanText, hasVisibleCharacter } from '~/shared/text'
import { DEFAULT_TONE, TONES } from '~/shared/tones'

// One schema for the dashboard form, used by conform in the browser and by the
// actions and the JSON API on the server.

export const SHORT_TEXT_MAX = 200
export const EMAIL_MAX = 254
export const PHONE_MAX = 50
export const URL_MAX = 500
export const LONG_TEXT_MAX = 5000
/** A story or quote is a paragraph or two; the cap also keeps the dashboard's form inside its body limit. */
export const STORY_MAX = 2000

const text = (max: number, clean: (value: string) => string = cleanText) =>
  z
    .string()
    .max(max * 2, `Must be at most ${max} characters`)
    .transform(clean)
    .pipe(z.string().max(max, `Must be at most ${max} characters`))

const required = (max: number, message: string) => z.string({ required_error: message }).pipe(text(max)).pipe(z.string().min(1, message))

const optional = (max: number) => text(max).optional()
/** A long field that may be empty: what the evidence coach reads while a person types. */
export const optionalLong = optional(LONG_TEXT_MAX)

/** An organisation's or a person's name: no invisible character, and something to see. */
const requiredName = (message: string) =>
  z.string({ required_error: message }).pipe(text(SHORT_TEXT_MAX, cleanName)).pipe(z.string().refine(hasVisibleCharacter, message))

const optionalName = text(SHORT_TEXT_MAX, cleanName)
  .refine((name) => name === '' || hasVisibleCharacter(name), 'Enter a name with a visible character')
  .optional()

const optionalEmail = z.string().pipe(text(EMAIL_MAX)).pipe(z.string().email('Enter a valid email address')).optional()

export const NarrativeInputSchema = z.object({
  company: requiredName('Organization Name is required'),
  website: optional(URL_MAX),
  contactName1: requiredName('Primary Contact Name is required'),
  contactTitle1: optional(SHORT_TEXT_MAX),
  contactEmail1: z
    .string({ required_error: 'Primary Contact Email is required' })
    .pipe(text(EMAIL_MAX))
    .pipe(z.string().min(1, 'Primary Contact Email is required').email('Enter a valid email address')),
  contactPhone1: optional(PHONE_MAX),
  contactName2: optionalName,
  contactTitle2: optional(SHORT_TEXT_MAX),
  contactEmail2: optionalEmail,
  contactPhone2: optional(PHONE_MAX),
  missionStatement: required(LONG_TEXT_MAX, 'Mission Statement is required'),
  keyPrograms: required(LONG_TEXT_MAX, 'Key Programs and Services is required'),
  impactMetrics: required(LONG_TEXT_MAX, 'Impact Metrics and Achievements is required'),
  targetAudience: optionalLong,
  geographicFocus: optionalLong,
  successStory: optional(STORY_MAX),
  selectedTone: z.enum(TONES).default(DEFAULT_TONE),
})

export type NarrativeInput = z.infer<typeof NarrativeInputSchema>

export const NARRATIVE_FIELDS = [
  'company',
  'website',
  'contactName1',
  'contactTitle1',
  'contactEmail1',
  'contactPhone1',
  'contactName2',
  'contactTitle2',
  'contactEmail2',
  'contactPhone2',
  'missionStatement',
  'keyPrograms',
  'impactMetrics',
  'targetAudience',
  'geographicFocus',
  'successStory',
  'selectedTone',
] as const satisfies readonly (keyof NarrativeInput)[]

/** The form's labels of the fields a text is traced to, and of what a narrative written for a funder adds. */
export const FIELD_LABELS: Record<string, string> = {
  company: 'Organization Name',
  website: 'Website',
  contactName1: 'Primary Contact Name',
  contactTitle1: 'Primary Contact Title',
  contactEmail1: 'Primary Contact Email',
  contactPhone1: 'Primary Contact Phone',
  contactName2: 'Secondary Contact Name',
  contactTitle2: 'Secondary Contact Title',
  contactEmail2: 'Secondary Contact Email',
  contactPhone2: 'Secondary Contact Phone',
  missionStatement: 'Mission Statement',
  keyPrograms: 'Key Programs and Services',
  impactMetrics: 'Impact Metrics and Achievements',
  targetAudience: 'Target Audience',
  geographicFocus: 'Geographic Focus',
  funderName: "Funder's name",
  amountRequested: 'Amount requested',
}

/** The list's search (page and API): LIKE's cost grows with the pattern's length. */
export const SEARCH_QUERY_MAX = 100
