// Shared by browser and server: the text hygiene every field goes through.

// NUL, other C0 controls except tab/newline/carriage return, DEL and C1 controls.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g
// Half of a character: JSON can escape one ("\ud800"), and no database or document can hold it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
// Characters that draw nothing (Unicode's default-ignorable code points: zero-width spaces and joiners,
// the bidirectional overrides and isolates, tag characters…), and the emoji tag sequences that draw a
// subdivision's flag, which need their tag characters.
const INVISIBLE_OR_FLAG = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|\p{Default_Ignorable_Code_Point}/gu
// The invisible characters that real scripts and emoji need: the zero-width non-joiner and joiner (Persian,
// Indic scripts, emoji families), and variation selectors (emoji presentation, Mongolian, CJK variants).
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

/**
 * Text as the user meant it: NFC, well-formed, no control characters (tab and new lines kept), and no
 * invisible characters but the joiners and variation selectors that words and emoji are made of.
 */
export function cleanText(value: string): string {
  return withoutInvisible(value, isJoinerOrFlag).trim()
}

/**
 * A name (a person's, an organisation's) as it is shown to others: cleaned as text, with no invisible
 * character at all, so "admin\u200b" is "admin" and a name of zero-width spaces is empty.
 */
export function cleanName(value: string): string {
  return withoutInvisible(value, () => false).trim()
}

/** Whether a cleaned name has anything to see: a letter, digit, punctuation mark or symbol. */
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

export function countWords(text: string): number {
  const words = text.trim().split(/\s+/)
  return words[0] === '' ? 0 : words.length
}
