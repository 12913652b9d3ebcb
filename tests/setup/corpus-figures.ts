import { readCall } from '~/server/funders/call-reading.server'
import { findClaims } from '~/server/narratives/claims.server'
import { findConflicts } from '~/server/narratives/consistency.server'
import { contentWords } from '~/server/language/topics.server'
import type { CallReading } from '~/shared/funder-schema'
import { normal, type CorpusApplication, type CorpusCall, type CorpusOrganisation } from './corpus'

// How the call reader's reading of a corpus call compares with its labels: the tallies behind `npm run corpus` and the
// test that holds the reader to its goals (tests/unit/call-reading-corpus.test.ts).

/** Two readings of one line: the same words, one inside the other, or most content words shared. */
export function sameLine(found: string, label: string) {
  const [a, b] = [normal(found), normal(label)]
  if (a === b || ((a.includes(b) || b.includes(a)) && Math.min(a.length, b.length) / Math.max(a.length, b.length) >= 0.6)) return true
  const [x, y] = [new Set(contentWords(a)), new Set(contentWords(b))]
  const shared = [...x].filter((word) => y.has(word)).length
  return shared / Math.max(1, new Set([...x, ...y]).size) >= 0.6
}

/** The reader may give a currency as its sign: "$" is right for any dollar. */
const SIGNS: Record<string, string[]> = { '£': ['GBP'], '€': ['EUR'], $: ['USD', 'CAD', 'AUD', 'NZD'] }
const sameCurrency = (got: string, labelled: string) => got.toUpperCase() === labelled || (SIGNS[got] ?? []).includes(labelled)

export const READER_FIELDS = ['amountMin', 'amountMax', 'currency', 'deadline', 'maxWords'] as const

export type ReaderTally = {
  priorities: { labelled: number; found: number; right: number; notTaken: number; notLabelled: number }
  questions: {
    labelled: number
    found: number
    right: number
    limitsLabelled: number
    limitsRight: number
    /** Character limits, and those read with the call's rule for spaces (counted, or not). */
    characterLimits: number
    spacesRight: number
  }
  fields: Record<(typeof READER_FIELDS)[number], { right: number; all: number }>
  nameAsTerm: number
  misses: string[]
}

export function emptyTally(): ReaderTally {
  const field = () => ({ right: 0, all: 0 })
  return {
    priorities: { labelled: 0, found: 0, right: 0, notTaken: 0, notLabelled: 0 },
    questions: { labelled: 0, found: 0, right: 0, limitsLabelled: 0, limitsRight: 0, characterLimits: 0, spacesRight: 0 },
    fields: { amountMin: field(), amountMax: field(), currency: field(), deadline: field(), maxWords: field() },
    nameAsTerm: 0,
    misses: [],
  }
}

export function score(tally: ReaderTally, call: CorpusCall, reading: CallReading, how: string) {
  const { labels } = call
  const miss = (line: string) => tally.misses.push(`${call.slug} (${how}): ${line}`)
  const found = reading.priorities.map((priority) => priority.text)
  tally.priorities.labelled += labels.priorities.length
  tally.priorities.found += found.length
  for (const label of labels.priorities)
    if (found.some((text) => sameLine(text, label))) tally.priorities.right++
    else miss(`priority not found: ${label}`)
  for (const text of found) {
    if (!labels.priorities.some((label) => sameLine(text, label))) {
      tally.priorities.notLabelled++
      miss(`taken as a priority: ${text}`)
    }
    if (labels.notPriorities.some((label) => sameLine(text, label))) tally.priorities.notTaken++
  }

  tally.questions.labelled += labels.questions.length
  tally.questions.found += reading.questions.length
  for (const label of labels.questions) {
    const question = reading.questions.find((candidate) => sameLine(candidate.text, label.text))
    if (question) tally.questions.right++
    else miss(`question not found: ${label.text}`)
    if (label.maxWords || label.maxCharacters) {
      tally.questions.limitsLabelled++
      const right =
        question &&
        (question.maxWords ?? null) === (label.maxWords ?? null) &&
        (question.maxCharacters ?? null) === (label.maxCharacters ?? null) &&
        (question.withoutSpaces ?? false) === (label.withoutSpaces ?? false)
      if (right) tally.questions.limitsRight++
      else miss(`limit of "${label.text}": ${JSON.stringify(question ?? null)}`)
    }
    if (label.maxCharacters) {
      tally.questions.characterLimits++
      if (question?.maxCharacters && (question.withoutSpaces ?? false) === (label.withoutSpaces ?? false)) tally.questions.spacesRight++
    }
  }
  for (const name of READER_FIELDS) {
    const expected = labels[name] ?? null
    const got = reading[name] ?? null
    tally.fields[name].all++
    if (expected === got || (name === 'currency' && sameCurrency(String(got), String(expected)))) tally.fields[name].right++
    else miss(`${name} ${String(got)}, labelled ${String(expected)}`)
  }
  const funderWords = new Set(contentWords(normal(labels.name)))
  // A term all of whose words are the fund's name's ("Community Possible" of "U.S. Bank Community Possible Grants").
  const fromName = reading.terms.filter((term) => contentWords(normal(term)).every((word) => funderWords.has(word)))
  if (fromName.length) {
    tally.nameAsTerm++
    miss(`terms from the fund's own name: ${fromName.join('; ')}`)
  }
}

/** The reader's tally over calls pasted as text. */
export async function readerTally(calls: CorpusCall[]): Promise<ReaderTally> {
  const tally = emptyTally()
  for (const call of calls) score(tally, call, await readCall(call.text), 'pasted')
  return tally
}

/** Pairs of figures that disagree across an application: those labelled, those flagged, and those both (applications/README.md). */
export type ConsistencyTally = { labelled: number; flagged: number; right: number; misses: string[] }

export function consistencyTally(applications: CorpusApplication[], organisations: CorpusOrganisation[]): ConsistencyTally {
  const tally: ConsistencyTally = { labelled: 0, flagged: 0, right: 0, misses: [] }
  const inputsOf = new Map(organisations.map((organisation) => [organisation.slug, organisation.inputs]))
  for (const application of applications) {
    const inputs = inputsOf.get(application.organisation) ?? { company: '' }
    const texts = [application.narrative, ...application.answers.map((answer) => answer.text)].map((text, index) => ({
      question: index === 0 ? null : index - 1,
      text,
      claims: findClaims(text, inputs),
    }))
    const flagged = new Set<string>()
    for (const [question, conflicts] of findConflicts(texts, inputs))
      for (const conflict of conflicts)
        for (const other of conflict.elsewhere) flagged.add(pairKey([question, conflict.figure], [other.question, other.figure]))
    const labelled = new Set(application.conflicts.map(({ a, b }) => pairKey([placeOf(a.in), a.figure], [placeOf(b.in), b.figure])))
    tally.labelled += labelled.size
    tally.flagged += flagged.size
    for (const pair of flagged) {
      if (labelled.has(pair)) tally.right++
      else tally.misses.push(`${application.slug}: flagged, not labelled: ${pair}`)
    }
    for (const pair of labelled) if (!flagged.has(pair)) tally.misses.push(`${application.slug}: labelled, not flagged: ${pair}`)
  }
  return tally
}

const placeOf = (place: 'narrative' | number) => (place === 'narrative' ? null : place)

/** A pair named by its places and numbers, in either order: "210 families" and "210 local families" are one figure. */
function pairKey(...sides: [number | null, string][]): string {
  return sides
    .map(([place, figure]) => `${place ?? 'narrative'}=${/\d[\d,.]*/.exec(figure)?.[0].replace(/[,.]$/, '').replace(/,/g, '') ?? figure}`)
    .sort()
    .join(' / ')
}
