import { claimInputsOf, findClaims, readClaims, type Claim, type ClaimInputs } from '~/server/narratives/claims.server'
import { closeness, EVIDENCE, sharedTopics, speaksTo, topicsOf } from '~/server/language/topics.server'
import type { CallQuestion } from '~/shared/funder-schema'
import { sentences } from '~/shared/variant-limits'
import { FIELD_LABELS } from '~/shared/narrative-schema'
import { runWork, runWorkOr } from '~/server/platform/work-pool.server'

// A narrative's alignment with its brief (docs/decisions/030): plain code, like claims, found when the text changes and kept beside it.

export type AlignmentState = 'answered' | 'unsupported' | 'missing'
export type Alignment = {
  priority: string
  state: AlignmentState
  sentences: string[]
  fields: ContentField[]
  gap?: string
  /** The input sentence a model quoted as answering the priority, checked to be in the inputs, and the model's name. */
  quote?: string
  judgedBy?: string
}

/** A model's verdict on one priority: answered by `quote`, found in `field`, or (both null) not answered by the inputs. */
export type JudgedBacking = { priority: string; field: ContentField | null; quote: string | null }

/** The brief may change or go; the narrative keeps it as it was written for. */
export type BriefAsWritten = {
  funder: string
  amount: string | null
  priorities: string[]
  terms: string[]
  maxWords: number | null
  questions: CallQuestion[]
  /** A configured model's verdicts, asked when the narrative was written; plain code judges the priorities it left. */
  judged?: { by: string; backing: JudgedBacking[] }
}

export function parseBrief(column: string | null): BriefAsWritten | null {
  return column === null ? null : (JSON.parse(column) as BriefAsWritten)
}

/** The fields that say what the organisation does: a priority is answered from these. */
export const CONTENT_FIELDS = ['missionStatement', 'keyPrograms', 'impactMetrics', 'targetAudience', 'geographicFocus'] as const
export type ContentField = (typeof CONTENT_FIELDS)[number]

/** Where a gap is filled, by what the priority is about; Key Programs and Services otherwise. */
const FIELD_FOR_THEME = new Map<string, ContentField>([
  ['theme:evidence', 'impactMetrics'],
  ['theme:equity', 'targetAudience'],
  ['theme:youth', 'targetAudience'],
  ['theme:elders', 'targetAudience'],
  ['theme:rural', 'geographicFocus'],
])

/** A sentence stating a figure of the Impact Metrics speaks to a call's "measurable outcomes", and so does that field. */
const FIGURE = /\d/
/** The sentences shown for a priority: the closest to it, in the text's order. */
const SENTENCES_SHOWN = 3
/** Its first 400 sentences (a narrative has about 25), each to 1,000 characters: a crafted text costs no more than a real one. */
const SENTENCES_READ = 400
const SENTENCE_READ = 1000

export function textColumns(text: string, inputs: ClaimInputs, brief: string | null) {
  const claims = findClaims(text, claimInputsOf(inputs))
  const written = parseBrief(brief)
  return { claims: JSON.stringify(claims), alignment: written ? JSON.stringify(findAlignment(text, inputs, written, claims)) : null }
}

export type TextColumns = ReturnType<typeof textColumns>

/** textColumns in the work pool, for a text a person saves: a refusal is theirs to see, and nothing is saved. */
export function textColumnsInPool(text: string, inputs: ClaimInputs, brief: string | null, signal?: AbortSignal) {
  const request: TextColumnsRequest = { text, inputs: claimInputsOf(inputs), brief }
  return runWork<TextColumns>('text-columns', request, {
    signal,
    tooMuch: 'Tracing the claims of this text took too long. Shorten the text and save again.',
  })
}

/** For a generation's end, never lost to a busy pool: refused, the columns stay empty and are found when the text is read. */
export function textColumnsOrLater(text: string, inputs: ClaimInputs, brief: string | null) {
  const request: TextColumnsRequest = { text, inputs: claimInputsOf(inputs), brief }
  return runWorkOr<TextColumns, NoColumns>({ claims: null, alignment: null }, 'text-columns', request, {})
}

type NoColumns = { claims: null; alignment: null }
export type TextColumnsRequest = { text: string; inputs: ClaimInputs; brief: string | null }

/** `kept` is null for a text kept before alignment was: found now. */
export function readAlignment(
  kept: string | null,
  claims: string | null,
  text: string,
  inputs: ClaimInputs,
  brief: string | null,
): Alignment[] {
  const written = parseBrief(brief)
  if (!written) return []
  if (kept !== null) return JSON.parse(kept) as Alignment[]
  return findAlignment(text, inputs, written, readClaims(claims, text, inputs))
}

export function coverageOf(alignment: Alignment[]): number | null {
  if (!alignment.length) return null
  return Math.round((alignment.filter((item) => item.state === 'answered').length / alignment.length) * 100) / 100
}

type Piece = { text: string; topics: Set<string>; claims: Claim[] }

export function findAlignment(text: string, inputs: ClaimInputs, brief: BriefAsWritten, claims: Claim[]): Alignment[] {
  const withoutFunder = nameRemover(brief.funder)
  const pieces = piecesOf(text, claims, withoutFunder)
  const backingOf = inputBacking(inputs, brief.funder)
  return brief.priorities.map((priority) => {
    const topics = topicsOf(priority)
    const judged = brief.judged?.backing.find((verdict) => verdict.priority === priority)
    const answers = answersPriority(priority)
    // The model read meaning in the quote: a sentence of the text that tells what the quote tells answers too.
    const quoted = judged?.quote ? topicsOf(withoutFunder(judged.quote)) : null
    const answering = pieces.filter((piece) => answers(piece.topics) || (quoted && speaksTo(quoted, piece.topics)))
    const backing = judged ? (judged.field ? [judged.field] : []) : backingOf(priority)
    const supported = answering.filter((piece) => piece.claims.every((claim) => claim.supported))
    const state: AlignmentState = !answering.length ? 'missing' : backing.length && supported.length ? 'answered' : 'unsupported'
    const shown = (state === 'answered' ? supported : answering)
      .map((piece) => ({ piece, score: closeness(topics, piece.topics) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, SENTENCES_SHOWN)
      .map(({ piece }) => piece)
    const claimed = shown.flatMap((piece) => piece.claims.flatMap((claim) => claim.fields))
    const fields = orderedFields([
      ...backing,
      ...claimed.filter((field): field is ContentField => (CONTENT_FIELDS as readonly string[]).includes(field)),
    ])
    const item: Alignment = {
      priority,
      state,
      sentences: answering.filter((piece) => shown.includes(piece)).map((piece) => piece.text),
      fields: state === 'answered' ? fields : backing,
    }
    if (judged?.quote) Object.assign(item, { quote: judged.quote, judgedBy: brief.judged!.by })
    const gap = gapOf(priority, topics, state, backing, answering)
    return gap ? { ...item, gap } : item
  })
}

/** The offline drafter asks this too, so that it writes nothing towards a priority the inputs leave without backing. */
export function inputBacking(inputs: ClaimInputs, funder: string): (priority: string) => ContentField[] {
  const withoutFunder = nameRemover(funder)
  const fieldPieces = CONTENT_FIELDS.map((field) => ({
    field,
    pieces: piecesOf(inputs[field] ?? '', null, withoutFunder).map((piece) => {
      if (field === 'impactMetrics') piece.topics.add(EVIDENCE)
      return piece
    }),
  }))
  return (priority) => {
    const answers = answersPriority(priority)
    return fieldPieces.filter(({ pieces }) => pieces.some((piece) => answers(piece.topics))).map(({ field }) => field)
  }
}

/** A priority named before its description ("Food security: reducing hunger") must be answered on the name too. */
export function answersPriority(priority: string): (topics: Set<string>) => boolean {
  const topics = topicsOf(priority)
  const named = namedTopics(priority)
  return (text) => speaksTo(topics, text) && (named.size === 0 || sharedTopics(named, text).length > 0)
}

function namedTopics(priority: string): Set<string> {
  const colon = priority.indexOf(':')
  return colon > 0 && colon < 60 ? topicsOf(priority.slice(0, colon)) : new Set<string>()
}

function gapOf(priority: string, topics: Set<string>, state: AlignmentState, backing: ContentField[], answering: Piece[]): string | null {
  if (state === 'answered') return null
  const named = namedTopics(priority)
  const where = FIELD_LABELS[[...(named.size ? named : topics)].map((topic) => FIELD_FOR_THEME.get(topic)).find(Boolean) ?? 'keyPrograms']
  if (state === 'missing' && backing.length)
    return `Your inputs speak to “${priority}” (${backing.map((field) => FIELD_LABELS[field]).join(', ')}), but the text does not answer it: write again, or add it to the text.`
  if (state === 'missing')
    return `The call asks about “${priority}”; your inputs say nothing about it. If you do this work, add it to ${where}.`
  if (!backing.length)
    return `The text speaks to “${priority}”, but your inputs give nothing behind it: add the facts to ${where}, or take it out of the text.`
  const unsupported = [
    ...new Set(answering.flatMap((piece) => piece.claims.filter((claim) => !claim.supported).map((claim) => claim.text))),
  ]
  return `The sentences that answer “${priority}” state what your inputs do not (${unsupported.join(', ')}): correct them, or add the facts to ${where}.`
}

/** `claims` is null for an input field. */
function piecesOf(text: string, claims: Claim[] | null, withoutFunder: (text: string) => string): Piece[] {
  const pieces: Piece[] = []
  let start = 0
  // Claims are in the text's order: each sentence takes those that start inside it.
  let next = 0
  for (const sentence of sentences(text)) {
    const end = start + sentence.length
    const trimmed = sentence.trim()
    const inside: Claim[] = []
    while (claims && next < claims.length && claims[next].start < end) inside.push(claims[next++])
    if (trimmed && pieces.length < SENTENCES_READ) {
      const topics = topicsOf(withoutFunder(trimmed.slice(0, SENTENCE_READ)))
      if (inside.some((claim) => claim.supported && FIGURE.test(claim.text) && claim.fields.includes('impactMetrics'))) topics.add(EVIDENCE)
      pieces.push({ text: trimmed, topics, claims: inside })
    }
    start = end
  }
  return pieces
}

/** The funder's own name says nothing of what a sentence answers ("Community" in "Lane County Community Foundation"). */
export function nameRemover(funder: string) {
  const escaped = funder.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  if (!escaped) return (text: string) => text
  const pattern = new RegExp(escaped, 'gi')
  return (text: string) => text.replace(pattern, ' ')
}

function orderedFields(fields: ContentField[]): ContentField[] {
  return CONTENT_FIELDS.filter((field) => fields.includes(field))
}
