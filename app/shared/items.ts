import { trimEndMatching } from '~/shared/text'

// A long field read as the list its writer meant (docs/decisions/021); a pattern ending in a run starts only where the run starts.

export const AWARD =
  /\b(?:award(?:s|ed)?|prize|medal|winner|won|shortlisted|finalist|honou?r(?:ed)?|accredit(?:ed|ation)|named\b[^.]*\bof the year)\b/i
const BULLET = /^\s*(?:[-*•‣◦▪–—+]|\(?\d{1,2}[.)]|\(?[a-z]\))\s+/
const ABBREVIATIONS = new Set('e.g i.e etc dr mr mrs ms prof st inc co ltd jr sr vs no approx u.s u.k mt'.split(' '))

/** The field's items, at most `max` of them, each trimmed of its list marker and closing punctuation. */
export function splitItems(value: string | undefined, max: number): string[] {
  const pieces: string[] = []
  const seen = new Set<string>()
  for (const line of (value ?? '').split(/\r?\n/)) {
    if (/^\s*#/.test(line)) continue // a markdown heading carries no fact of its own
    const text = line.replace(BULLET, '').replace(/\*+/g, '').replace(/\s+/g, ' ').trim()
    // A line that only introduces the list after it ("Our work includes:") says nothing by itself.
    if (text === '' || /:$/.test(text)) continue
    // "Workshop mornings: tea at ten; woodwork, repairs, and the kettle always on": one programme, told whole.
    const parts = (LABELLED.test(text) ? [text] : text.split(';')).flatMap(splitSentences).flatMap(splitFigures)
    for (const part of parts) {
      const piece = trimEndMatching(part.trim().replace(/^(?:and|or)\s+/i, ''), /[\s.;,:]/)
      if (!/\p{L}{2}/u.test(piece) || seen.has(piece.toLowerCase())) continue
      seen.add(piece.toLowerCase())
      pieces.push(piece)
      if (pieces.length === max) return pieces
    }
  }
  return pieces
}

/** "2.8 million pounds distributed, and 61,000 people served": two items; not a longer list's last, nor a figure pointing back. */
function splitFigures(part: string): string[] {
  const at = /,\s+and\s+(?=\d)/.exec(part)
  if (!at) return [part]
  const [before, after] = [part.slice(0, at.index), part.slice(at.index + at[0].length)]
  if (before.includes(',') || /\b(?:it|them|this|these|those|they)\b/i.test(after)) return [part]
  return [before, ...splitFigures(after)]
}

/** A line written "Name: what it does", with a name of a few words. */
const LABELLED = /^[^:;.!?]{2,60}:\s/

const SENTENCE_END = /(?<![.!?])[.!?]+["'”’)\]]*\s+(?=["'“‘([]?[A-Z0-9])/g

/** Sentences, not cut after an abbreviation ("e.g.", "Dr.") or an initial. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  for (const match of text.matchAll(SENTENCE_END)) {
    const before = text.slice(Math.max(start, text.lastIndexOf(' ', match.index - 1) + 1), match.index)
    if (match[0].startsWith('.') && isAbbreviation(before)) continue
    sentences.push(text.slice(start, match.index + match[0].trimEnd().length))
    start = match.index + match[0].length
  }
  sentences.push(text.slice(start))
  return sentences
}

function isAbbreviation(word: string): boolean {
  const bare = word.toLowerCase().replace(/^[("'“‘]+/, '')
  return ABBREVIATIONS.has(bare) || /^[a-z]$/.test(bare)
}

const STOP_WORDS = new Set(
  'a an the and or but of to in on at by for with from into over under than that this these those their its our your his her they them we us you it is are was were be been being has have had do does did not no so as per each every all any some more most less few many much also only just very about after before since until while who whom whose which what when where why how there here then than such other own same can could will would should may might must'.split(
    ' ',
  ),
)

/** Lower-cased, without the little words, and cut to a rough stem so that "tutors", "tutored" and "tutoring" meet. */
export function keyWords(text: string): string[] {
  const words = text.toLowerCase().match(/\p{L}[\p{L}'’-]*/gu) ?? []
  return words.filter((word) => word.length > 2 && !STOP_WORDS.has(word)).map(stem)
}

function stem(word: string): string {
  const bare = word.replace(/['’]s$/, '')
  return bare.length > 5 ? bare.replace(/(?:ings?|ed|es|s)$/, '') : bare.replace(/s$/, '')
}
