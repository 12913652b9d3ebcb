import fs from 'node:fs'
import wordListPath from 'word-list'
import { NARRATIVE_FIELDS, type NarrativeInput } from '~/shared/narrative-schema'
import { runWorkOr } from '~/server/platform/work-pool.server'

// Claims traced to the inputs (docs/decisions/017). Plain code: the same text and inputs always give the same claims.

/** The ask names the funder and the amount asked, so they are claims' fields too (docs/decisions/030). */
export type ClaimField = Exclude<keyof NarrativeInput, 'selectedTone'> | 'funderName' | 'amountRequested'
export type ClaimInputs = Partial<Record<ClaimField, string | null>>
export type Claim = { text: string; start: number; end: number; supported: boolean; fields: ClaimField[] }

export const CLAIM_FIELDS: readonly ClaimField[] = [
  ...NARRATIVE_FIELDS.filter((field): field is Exclude<ClaimField, 'funderName' | 'amountRequested'> => field !== 'selectedTone'),
  'funderName',
  'amountRequested',
]

export function claimInputsOf(record: ClaimInputs): ClaimInputs {
  return Object.fromEntries(CLAIM_FIELDS.map((field) => [field, record[field]]))
}

/** Found when the text changes, so reading a narrative never finds them again (docs/decisions/025). */
export function claimsColumn(text: string, inputs: ClaimInputs): string {
  return JSON.stringify(findClaims(text, claimInputsOf(inputs)))
}

/** claimsColumn in the work pool, for a variant's end: refused, it stays empty and is found when read. */
export function claimsColumnOrLater(text: string, inputs: ClaimInputs) {
  return runWorkOr<string, null>(null, 'claims-column', { text, inputs: claimInputsOf(inputs) }, {})
}

/** The kept claims, or, for a text kept before they were (null), found now. */
export function readClaims(kept: string | null, text: string, inputs: ClaimInputs): Claim[] {
  return kept === null ? findClaims(text, claimInputsOf(inputs)) : (JSON.parse(kept) as Claim[])
}

export function findClaims(text: string, inputs: ClaimInputs): Claim[] {
  const runs = [...findNameRuns(text)]
  const index = indexInputs(
    inputs,
    runs.flatMap(({ whole, trimmed }) => [whole, trimmed].flatMap((name) => (name ? [name.keys[0].slice(5)] : []))),
  )
  const found = [...findFigures(text), ...namesOf(runs, index.hasName)].sort((a, b) => a.start - b.start)
  const claims: Claim[] = []
  let end = 0
  for (const candidate of found) {
    // A name inside a figure ("March" in "March 2024") or the reverse is one claim, the first found.
    if (candidate.start < end) continue
    const fields = index.lookup(candidate)
    claims.push({ text: candidate.text, start: candidate.start, end: candidate.end, supported: fields.length > 0, fields })
    end = candidate.end
  }
  return claims
}

/** A claim before matching: what it is, and the keys that find it among the inputs (all must). */
type Candidate = { text: string; start: number; end: number; keys: string[] }

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
const MONTH = `(?:${MONTHS.map((month) => `${month[0].toUpperCase()}${month.slice(1)}`).join('|')}|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\\.?`
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`
const SCALE = String.raw`(?:\s*(?:thousand|million|billion|trillion)\b|(?:k|m|bn|M|K|BN)\b)`
const CURRENCY = String.raw`[$£€¥₹]|(?:US|CA|AU|NZ)\$|USD\s?|EUR\s?|GBP\s?|KES\s?|Ksh\s?`
/** No letter, digit or word-joining hyphen on either side: "COVID-19", "B2B" and "H2O" hold no figure. */
const BEFORE = String.raw`(?<![\p{L}\p{N}_.,]|[\p{L}\p{N}]-)`
const AFTER = String.raw`(?![\p{L}\p{N}_]|[.,]\d|-\p{L})`

const FIGURE = new RegExp(
  [
    // Phone numbers first: their digits are not figures of their own.
    String.raw`(?<phone>${BEFORE}\+?\(?\d{1,4}\)?(?:[ .-]?\(?\d{2,4}\)?){2,4}\d${AFTER})`,
    String.raw`(?<date>${BEFORE}(?:\d{1,2}(?:st|nd|rd|th)?\s+${MONTH},?\s+\d{4}|${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|${MONTH}\s+\d{4})${AFTER})`,
    String.raw`(?<money>(?:${CURRENCY})\s?(?:${NUMBER})${SCALE}?${AFTER})`,
    String.raw`(?<range>${BEFORE}(?:${NUMBER})\s?(?:-|–|—|to)\s?(?:${NUMBER})(?:\s?(?:%|percent\b|per cent\b))?${AFTER})`,
    String.raw`(?<percent>${BEFORE}(?:${NUMBER})\s?(?:%|percent\b|per cent\b))`,
    String.raw`(?<ordinal>${BEFORE}\d+(?:st|nd|rd|th)${AFTER})`,
    String.raw`(?<number>${BEFORE}(?:${NUMBER})${SCALE}?${AFTER})`,
  ].join('|'),
  'gu',
)

const SCALES: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, billion: 1e9, bn: 1e9, trillion: 1e12 }

/** "1,200", "1.2 million" and "1.2m" are all 1200000's value; rounding keeps float noise out of the key. */
function valueOf(figure: string): number {
  const match = /(\d[\d,]*(?:\.\d+)?)\s*(thousand|million|billion|trillion|k|m|bn)?/i.exec(figure)
  if (!match) return NaN
  const value = Number(match[1].replace(/,/g, '')) * (match[2] ? SCALES[match[2].toLowerCase()] : 1)
  return Math.round(value * 100) / 100
}

function figureKeys(kind: string, text: string): string[] {
  switch (kind) {
    case 'phone':
      return [`phone:${text.replace(/\D/g, '')}`]
    case 'date':
      return [dateKey(text)]
    case 'money':
      return [`money:${valueOf(text)}`]
    case 'percent':
      return [`percent:${valueOf(text)}`]
    case 'range': {
      const [from, to] = text.split(/\s?(?:-|–|—|to)\s?/)
      const percent = /%|per\s?cent/i.test(text)
      return [from, to].map((end) => (percent ? `percent:${valueOf(end)}` : `number:${valueOf(end)}`))
    }
    default:
      return [`number:${valueOf(text)}`]
  }
}

/** "March 2024" is found in "March 12, 2024" and "12 March 2024"; a day, when given, must match too. */
function dateKey(text: string): string {
  const month = MONTHS.findIndex((name) => text.toLowerCase().includes(name.slice(0, 3))) + 1
  const year = /\d{4}/.exec(text)![0]
  const day = /(?:^|\s)(\d{1,2})(?:st|nd|rd|th)?(?:,|\s|$)/.exec(text.replace(year, ''))?.[1]
  return day ? `date:${year}-${month}-${Number(day)}` : `date:${year}-${month}`
}

/** A text's figures as claims (money, shares, counts, years), without its names and without tracing them. */
export function figureClaims(text: string): Claim[] {
  return [...findFigures(text)].map(({ text: figure, start, end }) => ({ text: figure, start, end, supported: true, fields: [] }))
}

function* findFigures(text: string): Generator<Candidate> {
  for (const match of text.matchAll(FIGURE)) {
    const [kind, value] = Object.entries(match.groups!).find(([, group]) => group !== undefined)!
    const trimmed = value.trimEnd()
    const start = match.index! + match[0].indexOf(value)
    // A bare four-digit number is a year: a date of the inputs that contains it supports it.
    const keys = kind === 'number' && /^\d{4}$/.test(trimmed) ? [`year:${trimmed}`] : figureKeys(kind, trimmed)
    yield { text: trimmed, start, end: start + trimmed.length, keys }
  }
}

const NAME_WORD = String.raw`(?:\p{Lu}[\p{L}\p{M}'’]*(?:-\p{Lu}?[\p{L}\p{M}'’]+)*|\p{Lu}{2,}\d*)`
const CONNECTOR = String.raw`(?:of|for|and|the|de|du|da|del|la|le|van|von|&)`
const NAME = new RegExp(String.raw`(?<![\p{L}\p{N}])${NAME_WORD}(?:\s+(?:${CONNECTOR}\s+)*${NAME_WORD})*(?![\p{L}\p{N}])`, 'gu')

const NOT_NAMES = new Set(['I', ...MONTHS.map(capitalise), 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])

const CONNECTOR_WORD = new RegExp(`^${CONNECTOR}$`, 'u')

/** Opening a sentence with an English word, a run names `whole` only when the inputs hold it, else `trimmed`, without that word. */
type NameRun = { whole: Candidate | null; trimmed: Candidate | null; opensSentence: boolean }

/** Longer runs of capitalised words are read as several names: no organisation or person has a longer one. */
const NAME_MAX_WORDS = 12

function* findNameRuns(text: string): Generator<NameRun> {
  for (const match of text.matchAll(NAME)) {
    const parts = match[0].split(/(\s+)/)
    let start = match.index!
    for (let first = 0; first < parts.length; first += 2 * NAME_MAX_WORDS) {
      const words = parts.slice(first, first + 2 * NAME_MAX_WORDS - 1)
      yield nameRun(text, words, start)
      start += parts.slice(first, first + 2 * NAME_MAX_WORDS).join('').length
    }
  }
}

function nameRun(text: string, words: string[], start: number): NameRun {
  const whole = nameCandidate(words, start)
  // A sentence's first word is capitalised anyway: it starts a name only when it is no English word.
  if (!atSentenceStart(text, start) || !isEnglishWord(words[0])) return { whole, trimmed: null, opensSentence: false }
  let rest = words
  let restStart = start
  do {
    restStart += rest[0].length + (rest[1]?.length ?? 0)
    rest = rest.slice(2)
  } while (rest.length && CONNECTOR_WORD.test(rest[0]))
  return { whole: words.length > 1 ? whole : null, trimmed: nameCandidate(rest, restStart), opensSentence: true }
}

function nameCandidate(words: string[], start: number): Candidate | null {
  const name = trimPossessive(words.join(''))
  if (!name || NOT_NAMES.has(name)) return null
  return { text: name, start, end: start + name.length, keys: [`name:${normaliseName(name)}`] }
}

function* namesOf(runs: NameRun[], known: (name: string) => boolean): Generator<Candidate> {
  for (const { whole, trimmed, opensSentence } of runs) {
    const name = opensSentence && !(whole && known(whole.keys[0].slice(5))) ? trimmed : whole
    if (name) yield name
  }
}

function atSentenceStart(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 4), at)
  return at === 0 || /(?:^|[.!?:;…"“”'‘’()\n]\s*|\n\s*(?:[-*•]|\d+[.)])\s+)$/u.test(before) || /^\s*$/.test(text.slice(0, at))
}

function trimPossessive(name: string): string {
  return name.replace(/['’]s?$/u, '')
}

function normaliseName(name: string): string {
  return name
    .toLowerCase()
    .replace(/['’]s\b/gu, '')
    .replace(/[^\p{L}\p{N}&]+/gu, ' ')
    .trim()
}

let englishWords: Set<string> | undefined

/** 275,000 words, about 80 ms to read: each pool worker reads them as it starts; the server only for a text kept before its claims. */
export function loadEnglishWords(): Set<string> {
  englishWords ??= new Set(fs.readFileSync(wordListPath, 'utf8').split('\n'))
  return englishWords
}

export function isEnglishWord(word: string): boolean {
  const words = loadEnglishWords()
  // "Low-income" is two English words, "We're" is one, and the list has no single letters ("A").
  const lower = word.toLowerCase()
  const stems = [lower.replace(/['’](?:s|re|d|ll|ve|m|t)?$/u, ''), lower.replace(/n['’]t$/u, '')]
  return stems.some((stem) => stem.split('-').every((part) => part.length === 1 || words.has(part)))
}

function capitalise(word: string) {
  return word[0].toUpperCase() + word.slice(1)
}

function indexInputs(inputs: ClaimInputs, runNames: string[]) {
  const keys = new Map<string, Set<ClaimField>>()
  const add = (key: string, field: ClaimField) => {
    let fields = keys.get(key)
    if (!fields) keys.set(key, (fields = new Set()))
    fields.add(field)
  }
  const fields = Object.entries(inputs).filter(([, value]) => value) as [ClaimField, string][]
  for (const [field, value] of fields) {
    for (const figure of findFigures(value)) {
      for (const key of figure.keys) {
        add(key, field)
        // "In 2024" supports "2024" said as a year or a number, and a date's year and month support it.
        for (const alias of aliases(key)) add(alias, field)
      }
    }
  }
  const names = fieldsHoldingNames(fields, runNames)
  return {
    hasName: (name: string) => Boolean(names.get(name)?.size),
    lookup(candidate: Candidate): ClaimField[] {
      const sets = candidate.keys.map((key) => (key.startsWith('name:') ? names.get(key.slice(5)) : keys.get(key)))
      if (sets.some((set) => !set?.size)) return []
      return [...new Set(sets.flatMap((set) => [...set!]))]
    },
  }
}

type WordTrie = { next: Map<string, WordTrie>; name?: string }

/** A name's words normalised ("Saint-Denis" is two): longer ones are never found, so none costs more to look for. */
const NAME_MAX_TOKENS = 2 * NAME_MAX_WORDS

/** The names' words make a trie, walked from each word of each field: linear in the fields however many names (decision 025). */
function fieldsHoldingNames(fields: [ClaimField, string][], names: string[]): Map<string, Set<ClaimField>> {
  const root: WordTrie = { next: new Map() }
  for (const name of names) addToTrie(root, name.split(' '))
  const found = new Map<string, Set<ClaimField>>()
  for (const [field, value] of fields) {
    const words = normaliseName(value).split(' ')
    for (let first = 0; first < words.length; first++) {
      let node: WordTrie | undefined = root
      for (let at = first; node && at < words.length && at - first < NAME_MAX_TOKENS; at++) {
        node = node.next.get(words[at])
        if (!node?.name) continue
        if (!found.has(node.name)) found.set(node.name, new Set())
        found.get(node.name)!.add(field)
      }
    }
  }
  return found
}

function addToTrie(root: WordTrie, words: string[]) {
  if (!words[0] || words.length > NAME_MAX_TOKENS) return
  let node = root
  for (const word of words) {
    let child = node.next.get(word)
    if (!child) node.next.set(word, (child = { next: new Map() }))
    node = child
  }
  node.name = words.join(' ')
}

function aliases(key: string): string[] {
  const [kind, value] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)]
  if (kind === 'year') return [`number:${value}`]
  if (kind === 'number' && /^\d{4}$/.test(value)) return [`year:${value}`]
  if (kind === 'date') {
    const [year, month] = value.split('-')
    return [`year:${year}`, `number:${year}`, `date:${year}-${month}`]
  }
  // "$250,000" in the inputs supports "250,000" in the text, and "71%" supports "71".
  if (kind === 'money' || kind === 'percent') return [`number:${value}`]
  return []
}
