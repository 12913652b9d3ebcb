import { diffWordsWithSpace } from 'diff'
import { runWorkOr } from '~/server/platform/work-pool.server'

// Two versions compared word by word, for the narrative page (docs/decisions/020), in the work pool.

export type WordDiffPart = { text: string; change: 'same' | 'removed' | 'added' }

/**
 * Cost grows with the square of the difference: 400 takes about 18 ms at most, while two unrelated 20,000-character texts
 * took 27 s unbounded. A 400-word text with a third of its words changed differs by about 270.
 */
export const WORD_DIFF_MAX_EDITS = 400
/** A second bound, in time, should a slower machine take longer than that. */
const WORD_DIFF_TIMEOUT_MS = 40

/** Null when the texts are too different to compare word by word. */
export function compareWords(from: string, to: string): WordDiffPart[] | null {
  const parts = diffWordsWithSpace(from, to, { maxEditLength: WORD_DIFF_MAX_EDITS, timeout: WORD_DIFF_TIMEOUT_MS })
  if (!parts) return null
  return parts.map((part) => ({ text: part.value, change: part.added ? 'added' : part.removed ? 'removed' : 'same' }))
}

/** compareWords in the work pool; refused, the texts are shown side by side, as texts too different are. */
export function compareWordsInPool(from: string, to: string, signal: AbortSignal) {
  return runWorkOr<WordDiffPart[] | null, null>(null, 'compare-words', { from, to }, { signal })
}
