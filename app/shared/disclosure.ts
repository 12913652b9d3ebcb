import { DRAFTER_ENGINE, MANUAL_ENGINE } from '~/shared/engines'

// How a narrative's text was made, said the way a funder's AI-use declaration asks: what wrote the first
// text, how much of it people changed since, and whether its statements were checked against the inputs.
// Never "no AI" for a model's text, never "AI-written" for the offline drafter's.

/** What wrote a first text, as its files' properties and the statement name it. */
export function firstDraftBy(engine: string): string {
  if (engine === DRAFTER_ENGINE) return 'the offline drafter, from the organisation’s own words, with no language model'
  if (engine === MANUAL_ENGINE) return 'people, with no language model'
  return `the language model ${engine} (generative AI), from the organisation’s own inputs`
}

const WORD = /[\p{L}\p{N}]+(?:[',.’][\p{L}\p{N}]+)*/gu

/**
 * The share of words people changed between the first text and the current one, 0 to 1: words added, removed or
 * replaced, counted as a multiset (a sentence moved is no change), over the longer of the two. Linear in the texts.
 */
export function wordsChanged(first: string, current: string): number {
  const firstWords = first.toLowerCase().match(WORD) ?? []
  const currentWords = current.toLowerCase().match(WORD) ?? []
  const longer = Math.max(firstWords.length, currentWords.length)
  if (longer === 0) return 0
  const counts = new Map<string, number>()
  for (const word of firstWords) counts.set(word, (counts.get(word) ?? 0) + 1)
  let kept = 0
  for (const word of currentWords) {
    const left = counts.get(word) ?? 0
    if (left > 0) {
      kept++
      counts.set(word, left - 1)
    }
  }
  return 1 - kept / longer
}

export type DisclosureFacts = {
  /** The engine that wrote the first text. */
  engine: string
  /** The first text the narrative kept (null: saved before versions were kept), and its text now. */
  firstText: string | null
  currentText: string
  /** The statements of fact traced in the current text: found in the inputs or not. */
  claims: readonly { supported: boolean }[]
}

/** The statement, in sentences a writer can paste into a funder's form as they are. */
export function aiUseStatement({ engine, firstText, currentText, claims }: DisclosureFacts): string {
  const written =
    engine === MANUAL_ENGINE
      ? 'This text was written by people, with no language model, and kept in Impact Narrative Studio.'
      : `The first draft of this text was written in Impact Narrative Studio by ${firstDraftBy(engine)}.`
  const changed =
    firstText === null
      ? 'Its first text was not kept, so how much people changed since is not known.'
      : changedSentence(engine, wordsChanged(firstText, currentText))
  const unsupported = claims.filter((claim) => !claim.supported).length
  return [written, changed, checkedSentence(claims.length, unsupported)].join(' ')
}

function changedSentence(engine: string, changed: number): string {
  const percent = Math.round(changed * 100)
  // A change too small to round to 1% is still a change: never "0%" for an edited text.
  const shown = changed > 0 && percent === 0 ? 'under 1%' : `${percent}%`
  if (engine === MANUAL_ENGINE)
    return changed === 0 ? 'It has not been edited since it was saved.' : `People have changed ${shown} of its words since it was saved.`
  return changed === 0 ? 'People have not changed its words since.' : `People have since changed ${shown} of its words.`
}

function checkedSentence(statements: number, unsupported: number): string {
  if (statements === 0) return 'It states no figures or names for the organisation that needed checking.'
  const all =
    statements === 1 ? 'Its one statement of fact was' : `Each of its ${statements} statements of fact (figures, names, dates) was`
  if (unsupported === 0) return `${all} checked against the organisation’s inputs and found there.`
  const flagged = unsupported === 1 ? 'one was not found there and is flagged' : `${unsupported} were not found there and are flagged`
  return `${all} checked against the organisation’s inputs; ${flagged} for the writer to confirm.`
}
