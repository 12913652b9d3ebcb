import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { EVIDENCE_FIELDS } from '~/shared/evidence'

// The reading corpus (tests/fixtures/corpus/README.md): funder calls and organisations modelled on real
// public ones, labelled by hand. Read and checked against its schema here, for its test and its figures.

export const CORPUS_DIR = 'tests/fixtures/corpus'

const verbatim = z.string().min(1)
const limit = z.number().int().positive().nullable().optional()

const CallLabelsSchema = z.object({
  name: z.string().min(1),
  priorities: z.array(verbatim).min(1),
  questions: z.array(
    z.object({ text: verbatim, maxWords: limit, maxCharacters: limit, withoutSpaces: z.literal(true).optional() }).strict(),
  ),
  maxWords: limit,
  amountMin: z.number().nonnegative().nullable(),
  amountMax: z.number().positive().nullable(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .nullable(),
  deadline: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
  notPriorities: z.array(verbatim).default([]),
})

const CallSchema = z
  .object({
    modelledOn: z.string().min(10),
    country: z.enum(['UK', 'US', 'Ireland', 'Canada', 'Australia']),
    kind: z.enum(['community-foundation', 'lottery', 'government', 'corporate', 'trust']),
    docx: z.boolean(),
    labels: CallLabelsSchema,
  })
  .strict()

export const EVIDENCE_TYPES = ['context', 'need', 'funding', 'input', 'output', 'outcome'] as const

const OrganisationSchema = z
  .object({
    modelledOn: z.string().min(10),
    country: z.enum(['UK', 'US', 'Ireland', 'Canada', 'Australia']),
    inputs: z
      .object({
        company: z.string().min(1).max(200),
        missionStatement: z.string().min(1).max(5000),
        keyPrograms: z.string().min(1).max(5000),
        impactMetrics: z.string().min(1).max(5000),
        targetAudience: z.string().max(5000).optional(),
        geographicFocus: z.string().max(5000).optional(),
        successStory: z.string().max(2000).optional(),
      })
      .strict(),
    evidence: z.array(z.object({ field: z.enum(EVIDENCE_FIELDS), line: verbatim, type: z.enum(EVIDENCE_TYPES) }).strict()).min(1),
    alignment: z.record(
      z.string(),
      z.array(
        z
          .object({ priority: verbatim, answeredBy: verbatim.nullable(), field: z.enum(EVIDENCE_FIELDS).optional() })
          .strict()
          .refine((label) => (label.answeredBy === null) === (label.field === undefined), 'an answer names its field, a gap none'),
      ),
    ),
  })
  .strict()

export type CorpusCall = z.infer<typeof CallSchema> & { slug: string; text: string }
export type CorpusOrganisation = z.infer<typeof OrganisationSchema> & { slug: string }

function jsonFiles(folder: string) {
  const dir = path.join(CORPUS_DIR, folder)
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .sort()
    : []
}

/** The calls the code was built on (`calls`), or those written after it, which it has never seen (`held-out/calls`). */
export function readCalls(folder: 'calls' | 'held-out/calls' = 'calls'): CorpusCall[] {
  return jsonFiles(folder).map((name) => {
    const slug = name.replace(/\.json$/, '')
    const parsed = CallSchema.parse(JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, folder, name), 'utf8')))
    return { ...parsed, slug, text: fs.readFileSync(path.join(CORPUS_DIR, folder, `${slug}.md`), 'utf8') }
  })
}

/** As calls: those the code was built on, or those written after it (`held-out/organisations`). */
export function readOrganisations(folder: 'organisations' | 'held-out/organisations' = 'organisations'): CorpusOrganisation[] {
  return jsonFiles(folder).map((name) => ({
    ...OrganisationSchema.parse(JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, folder, name), 'utf8'))),
    slug: name.replace(/\.json$/, ''),
  }))
}

const FigureLabel = z.object({ in: z.union([z.literal('narrative'), z.number().int().min(0)]), figure: verbatim }).strict()

/** A whole application written for one call from one organisation's inputs, its figures that disagree labelled (applications/README.md). */
const ApplicationSchema = z
  .object({
    organisation: z.string().min(1),
    call: z.string().min(1),
    narrative: z.string().min(200),
    answers: z.array(z.object({ question: verbatim, text: verbatim }).strict()).min(1),
    conflicts: z.array(z.object({ a: FigureLabel, b: FigureLabel, why: z.string().min(5) }).strict()),
  })
  .strict()

export type CorpusApplication = z.infer<typeof ApplicationSchema> & { slug: string }

/** As calls: those the code was tuned on, or those written blind after it (`held-out/applications`). */
export function readApplications(folder: 'applications' | 'held-out/applications' = 'applications'): CorpusApplication[] {
  return jsonFiles(folder).map((name) => ({
    ...ApplicationSchema.parse(JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, folder, name), 'utf8'))),
    slug: name.replace(/\.json$/, ''),
  }))
}

/** Whitespace and typographic quotes aside, the same text: labels are copied from text that may wrap. */
export function normal(text: string) {
  return text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim().toLowerCase()
}
