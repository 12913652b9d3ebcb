// Tab, newline and carriage return are kept.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g
// Half of a character: JSON can escape one ("\ud800"), and no database or document can hold it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
// The emoji tag sequences that draw a subdivision's flag need their tag characters.
const INVISIBLE_OR_FLAG = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|\p{Default_Ignorable_Code_Point}/gu
// Invisible characters that real scripts and emoji need: ZWNJ and ZWJ (Persian, Indic scripts, emoji
// families), and variation selectors (emoji presentation, Mongolian, CJK variants).
const JOINERS = [
  [0x200c, 0x200d],
  [0x180b, 0x180d],
  [0x180f, 0x180f],
  [0xfe00, 0xfe0f],
  [0xe0100, 0xe01ef],
]
const FLAG = 0x1f3f4

function isJoinerOrFlag(found: string) {
  const code = found.codePointAt(0)!
  return code === FLAG || JOINERS.some(([from, to]) => code >= from && code <= to)
}

export function cleanText(value: string): string {
  return withoutInvisible(value, isJoinerOrFlag).trim()
}

/** A name is shown to others: no invisible character at all, so "admin\u200b" is "admin" and a name of zero-width spaces is empty. */
export function cleanName(value: string): string {
  return withoutInvisible(value, () => false).trim()
}

export function hasVisibleCharacter(value: string): boolean {
  return /[\p{L}\p{N}\p{P}\p{S}]/u.test(value)
}

function withoutInvisible(value: string, keep: (found: string) => boolean): string {
  return value
    .normalize('NFC')
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(CONTROL_CHARACTERS, '')
    .replace(INVISIBLE_OR_FLAG, (found) => (keep(found) ? found : ''))
}

/** Runs of non-space, as `split(/\s+/)` finds them, without an array of every word: lists count whole pages. */
export function countWords(text: string): number {
  let words = 0
  let inWord = false
  for (let index = 0; index < text.length; index++) {
    const space = SPACE.test(text[index])
    if (!space && !inWord) words++
    inWord = !space
  }
  return words
}

const SPACE = /\s/

/** `text` without the characters at its end that `oneCharacter` matches. A loop: `/[…]+$/` is quadratic on a text with many runs of them. */
export function trimEndMatching(text: string, oneCharacter: RegExp): string {
  let end = text.length
  while (end > 0 && oneCharacter.test(text[end - 1])) end--
  return text.slice(0, end)
}

/** At most `maxChars` characters, cut at the last space before them, with `mark` where it was cut. */
export function cutAtSpace(text: string, maxChars: number, mark = ''): string {
  if (text.length <= maxChars) return text
  const cut = text.slice(0, maxChars)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))}${mark}`
}
