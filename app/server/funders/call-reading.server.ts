import { trimEndMatching } from '~/shared/text'
import { FUNDER_LIMITS, isDay, LIMIT_BOUNDS, type CallQuestion, type CallReading } from '~/shared/funder-schema'
import { sentences } from '~/shared/variant-limits'
import { contentWords, isContentWord } from '~/server/funders/topics.server'

// A funder's call read by plain code (docs/decisions/030), line by line, one pass per thing looked for, each line's
// work bounded: a call of 100,000 characters is read in milliseconds.

type LineKind = 'heading' | 'item' | 'row' | 'text' | 'blank'
type Line = { kind: LineKind; text: string }
type Section = 'priorities' | 'questions' | 'exclusions' | 'other'

/** Longer lines are prose a person would not call a heading; shorter ones, with no full stop, are headings of their own. */
const HEADING_MAX = 90
const PLAIN_HEADING_MAX = 60
const PLAIN_HEADING_WORDS = 8
const ITEM_PREFIX = /^(?:[-*•●▪◦‣–—]|\(?\d{1,2}[.)]|\(?[a-hA-H][.)]|\([ivx]{1,4}\))\s+/u

const SECTION_HEADINGS: [Section, RegExp][] = [
  ['exclusions', /\b(?:not|n['’]t|never)\s+(?:fund|support|consider)|exclusions?\b|ineligible|restrictions/i],
  [
    'questions',
    /questions?\b|what to (?:include|tell us)|tell us|application form|narrative (?:section|response)|your (?:proposal|application) should/i,
  ],
  [
    'priorities',
    /priorit|criteri|what we (?:fund|support|look for|want to)|we (?:are )?look(?:ing)? for|focus(?: areas?)?\b|funding (?:areas?|themes?)|themes?\b|objectives|assessment|scoring|selection|how we (?:assess|decide|score)|goals\b|outcomes we/i,
  ],
]

const PRIORITY_SENTENCE =
  /\b(?:priority (?:will be|is) given to|we (?:will )?(?:prioriti[sz]e|favou?r|especially welcome)|preference (?:will be|is) given to|we are (?:particularly |especially )?(?:looking for|seeking|interested in))\s+(.{8,})/i

// Never from inside a run of digits, and at most six of them: a line of digits made these backtrack
// over every start and length (a 100,000-digit call took 445 ms).
const LIMIT_NUMBER = String.raw`(?<!\d)(\d{1,3}(?:,\d{3})+|\d{1,6})(?!\d)`
const LIMIT_UNIT = String.raw`(words?|characters?|chars)`
/** "max 250 words", "(300 words)", "up to 1,500 characters", "250-word limit", "500 words maximum". */
const LIMIT_PATTERNS = [
  new RegExp(
    String.raw`(?:max(?:imum)?\.?(?:\s+of)?|up to|no more than|not (?:to )?exceed(?:ing)?|limit(?:ed)?\s+(?:of|to)|at most|within)\s*:?\s*${LIMIT_NUMBER}\s*${LIMIT_UNIT}`,
    'i',
  ),
  new RegExp(String.raw`${LIMIT_NUMBER}[\s-]*${LIMIT_UNIT}\s*(?:max(?:imum)?|limit|or (?:less|fewer))`, 'i'),
  new RegExp(String.raw`\(\s*${LIMIT_NUMBER}\s*${LIMIT_UNIT}\s*\)`, 'i'),
]
const WHOLE_CUE = /\b(?:narrative|proposal|application|statement|submission|case for support|letter|response|total|overall|entire|whole)\b/i

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const MONTH = String.raw`(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?`
const DATES = [
  { pattern: new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH},?\s+(\d{4})\b`, 'i'), order: ['day', 'month', 'year'] },
  { pattern: new RegExp(String.raw`\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'i'), order: ['month', 'day', 'year'] },
  { pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/, order: ['year', 'month', 'day'] },
] as const
const DEADLINE_CUE =
  /deadline|closing date|\bclos(?:e|es|ing)\b|\bdue\b|submit(?:ted)?\s+(?:by|before|no later)|no later than|must (?:be )?(?:received|submitted)|applications? (?:are )?(?:due|close)/i

const CURRENCY = String.raw`(?:US\$|CA\$|AU\$|NZ\$|[$£€¥₹]|USD|EUR|GBP|CAD|AUD|NZD|KES)`
const AMOUNT = String.raw`(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k|m|million|thousand)?\b`
const MONEY = new RegExp(String.raw`(${CURRENCY})\s?${AMOUNT}`, 'i')
const RANGE = new RegExp(String.raw`(${CURRENCY})\s?${AMOUNT}\s*(?:to|-|–|—|and)\s*(?:${CURRENCY})?\s?${AMOUNT}`, 'i')
const UP_TO = new RegExp(
  String.raw`(?:up to|maximum(?: of)?|max\.?|not (?:to )?exceed|no more than|at most)\s*(${CURRENCY})\s?${AMOUNT}`,
  'i',
)
const AT_LEAST = new RegExp(String.raw`(?:minimum(?: of)?|min\.?|at least|from)\s*(${CURRENCY})\s?${AMOUNT}`, 'i')
const AMOUNT_CUE = /grant|award|request|fund|amount|budget|range|between|up to|sum/i

const CAPITALISED = String.raw`[A-Z][\p{L}'’&.-]*`
const FUNDER_NAME = new RegExp(
  String.raw`(?:${CAPITALISED}[ \t]+(?:(?:of|for|and|the|&)[ \t]+)?){0,6}(?:Foundation|Trust|Fund|Council|Department|Agency|Ministry|Commission|Authority|Endowment|Philanthropies|Giving|Corporation|Company|Bank|Group|Institute|Society|Inc\.?|plc|LLC|Ltd\.?)\b(?:[ \t]+(?:of|for|on)[ \t]+(?:the[ \t]+)?${CAPITALISED}(?:[ \t]+(?:and[ \t]+)?${CAPITALISED}){0,4})?`,
  'u',
)

export async function readCall(raw: string): Promise<CallReading> {
  const text = raw.replace(/\r\n?/g, '\n').replace(/[\u00a0\u2007\u202f]/g, ' ')
  const lines = classify(text)
  await turn()
  const questions = findQuestions(lines)
  await turn()
  const amounts = findAmounts(lines)
  await turn()
  const priorities = findPriorities(lines)
  await turn()
  const reading: CallReading = { priorities: priorities.map((text) => ({ text })), questions, terms: [], ...amounts }
  const name = findName(text, lines)
  if (name) reading.name = name
  reading.terms = findTerms(text, priorities).filter((term) => !name?.toLowerCase().includes(term.toLowerCase()))
  await turn()
  const maxWords = findOverallLimit(lines, questions)
  if (maxWords) reading.maxWords = maxWords
  const deadline = findDeadline(lines)
  if (deadline) reading.deadline = deadline
  return reading
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

/** A paragraph longer than this is cut into pieces of at most this length, each then read sentence by sentence. */
const LINE_MAX = 1000
/** The lines read: about sixty pages of a call, more than any call's priorities, questions and dates need. */
const LINES_READ = 4000

function classify(text: string): Line[] {
  const lines: string[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) {
      if (lines.at(-1) !== '') lines.push('')
    } else for (const piece of splitLong(line)) if (lines.length < LINES_READ) lines.push(piece)
    if (lines.length >= LINES_READ) break
  }
  return lines.slice(0, LINES_READ).map((line): Line => {
    const trimmed = line.trim().replace(/\s+/g, ' ')
    if (!trimmed) return { kind: 'blank', text: '' }
    const heading = /^#{1,6}\s+(.*)$/.exec(trimmed)
    if (heading) return { kind: 'heading', text: heading[1].replace(/[*_]+/g, '').trim() }
    if (ITEM_PREFIX.test(trimmed)) return { kind: 'item', text: trimmed.replace(ITEM_PREFIX, '').trim() }
    if (/\s\|\s|\t/.test(line)) return { kind: 'row', text: trimmed }
    const bare = trimmed.replace(/[*_]+/g, '').trim()
    // "Maximum 150 words" on a line of its own is a question's limit, not a heading.
    if (
      bare.length <= HEADING_MAX &&
      !/[.?!;,]$/.test(bare) &&
      !limitIn(bare) &&
      (bare.endsWith(':') || sectionOf(bare) !== null || looksLikeHeading(bare))
    )
      return { kind: 'heading', text: bare.replace(/:$/, '') }
    return { kind: 'text', text: trimmed }
  })
}

function splitLong(line: string): string[] {
  if (line.length <= LINE_MAX) return [line]
  return piecesOf(line).flatMap((piece) => [...sentences(piece)])
}

// Cut before the sentences are found, so no sentence search ever reads more than LINE_MAX characters.
function piecesOf(line: string): string[] {
  const pieces: string[] = []
  let start = 0
  while (line.length - start > LINE_MAX) {
    const cut = start + cutIn(line.slice(start, start + LINE_MAX))
    pieces.push(line.slice(start, cut))
    start = cut
  }
  pieces.push(line.slice(start))
  return pieces
}

/** Where to cut a window: after its last sentence's end, else its last space, in its second half; else at its end. */
function cutIn(window: string): number {
  const half = LINE_MAX / 2
  for (let at = window.length - 1; at > half; at--) if (/\s/.test(window[at]) && /[.!?]/.test(window[at - 1])) return at + 1
  for (let at = window.length - 1; at > half; at--) if (/\s/.test(window[at])) return at + 1
  // Not between the halves of a character outside the Basic Multilingual Plane.
  return /[\ud800-\udbff]/.test(window.at(-1) ?? '') ? window.length - 1 : window.length
}

function looksLikeHeading(line: string): boolean {
  return (
    line.length <= PLAIN_HEADING_MAX && /^\p{Lu}/u.test(line) && !/[.?!;,:]$/.test(line) && line.split(' ').length <= PLAIN_HEADING_WORDS
  )
}

function sectionOf(heading: string): Section | null {
  return SECTION_HEADINGS.find(([, pattern]) => pattern.test(heading))?.[0] ?? null
}

function* inSections(lines: Line[]): Generator<Line & { section: Section }> {
  let section: Section = 'other'
  for (const line of lines) {
    if (line.kind === 'heading') section = sectionOf(line.text) ?? 'other'
    yield { ...line, section }
  }
}

// Priorities: under a heading of priorities or criteria, most important first when weighed; else the sentences of preference.

function findPriorities(lines: Line[]): string[] {
  const found: { text: string; weight: number }[] = []
  // A section's items and table rows are its priorities; a section with neither, its short lines.
  let listed: { text: string; weight: number }[] = []
  let plain: { text: string; weight: number }[] = []
  let header = true
  const close = () => {
    found.push(...(listed.length ? listed : plain))
    listed = []
    plain = []
  }
  for (const line of inSections(lines)) {
    if (line.kind === 'heading') {
      close()
      header = true
    }
    if (line.section !== 'priorities' || line.kind === 'heading' || line.kind === 'blank') continue
    if (line.kind === 'row') {
      const row = priorityOfRow(line.text, header)
      header = false
      if (row) listed.push(row)
    } else if (line.kind === 'item') listed.push({ text: line.text, weight: 0 })
    else if (line.text.length <= FUNDER_LIMITS.priority && !LEAD_IN.test(line.text)) plain.push({ text: line.text, weight: 0 })
  }
  close()
  if (!found.length) {
    for (const line of lines) {
      if (line.kind === 'blank' || line.kind === 'heading') continue
      for (const sentence of sentencesOf(line.text)) {
        const match = PRIORITY_SENTENCE.exec(sentence)
        if (match) found.push({ text: capitalise(trimEndMatching(match[1], /[.;:]/)), weight: 0 })
      }
    }
  }
  // A stable sort: without weights, the call's own order.
  return unique(found.sort((a, b) => b.weight - a.weight).map(({ text }) => bounded(text, FUNDER_LIMITS.priority))).slice(
    0,
    FUNDER_LIMITS.priorities,
  )
}

const LEAD_IN = /:$|\b(?:following|below|these|as follows)\b/i

/** A table row: its first cell names the criterion, a short cell may weigh it, a long one describes it. */
function priorityOfRow(row: string, maybeHeader: boolean): { text: string; weight: number } | null {
  const cells = row
    .split(/\s\|\s|\t+/)
    .map((cell) => cell.trim())
    .filter(Boolean)
  if (!cells.length) return null
  if (
    maybeHeader &&
    cells.every((cell) => cell.length < 40) &&
    cells.some((cell) => /criteri|weight|score|points|description|what we/i.test(cell))
  )
    return null
  const weightCell = cells.slice(1).find((cell) => /^\d{1,3}\s*(?:%|percent|points?|pts|marks?)?$/i.test(cell))
  const description = cells.slice(1).find((cell) => cell !== weightCell && cell.length > 12)
  const text = description ? `${cells[0].replace(/[:.]$/, '')}: ${description}` : cells[0]
  return { text, weight: weightCell ? Number(/\d+/.exec(weightCell)![0]) : 0 }
}

// Questions: the items under a heading of questions, and anywhere the numbered lines that ask something.

function findQuestions(lines: Line[]): CallQuestion[] {
  const questions: CallQuestion[] = []
  for (const line of inSections(lines)) {
    if (line.kind === 'heading' || line.kind === 'blank' || line.kind === 'row') continue
    const limit = limitIn(line.text)
    const rest = limit ? withoutLimit(line.text, limit.phrase) : line.text
    // A line that only states a limit ("Maximum 250 words") belongs to the question above it.
    if (limit && wordsIn(rest) < 2) {
      const last = questions.at(-1)
      if (last && !last.maxWords && !last.maxCharacters) Object.assign(last, limit.value)
      continue
    }
    const asks = line.text.includes('?') || /^(?:describe|explain|tell us|outline|provide|list|summari[sz]e|share|give)\b/i.test(rest)
    const inQuestions = line.section === 'questions' && (line.kind === 'item' || asks)
    if (!inQuestions && !(line.kind === 'item' && asks && line.section !== 'priorities')) continue
    if (wordsIn(rest) < 3) continue
    questions.push({ text: bounded(rest, FUNDER_LIMITS.question), ...(limit?.value ?? {}) })
    if (questions.length === FUNDER_LIMITS.questions) break
  }
  return questions
}

/**
 * A limit standing apart, in brackets ("(250 words maximum)") or after the question ("Describe it. Maximum 250 words"), is
 * taken out; inside a sentence ("in no more than 200 words") it is part of the question.
 */
function withoutLimit(text: string, phrase: string): string {
  const at = text.indexOf(phrase)
  const before = text.slice(0, at)
  const bracketed = /\(\s*[^()]*$/.test(before) && /^[^()]*\)/.test(text.slice(at + phrase.length))
  if (bracketed) return text.replace(/\s*\([^()]*\)/, (bracket) => (bracket.includes(phrase) ? '' : bracket)).trim()
  if (!before.trim() || /[.?!:]\s*$/.test(before))
    return trimEndMatching(before.trim() ? before : text.slice(at + phrase.length), /[\s,;:–—-]/).trim()
  return text
}

const wordsIn = (text: string) => text.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length

function limitIn(text: string): { phrase: string; value: { maxWords: number } | { maxCharacters: number } } | null {
  for (const pattern of LIMIT_PATTERNS) {
    const match = pattern.exec(text)
    if (!match) continue
    const max = Number(match[1].replace(/,/g, ''))
    const unit = /^w/i.test(match[2]) ? 'words' : 'characters'
    const bounds = LIMIT_BOUNDS[unit]
    if (max < bounds.min || max > bounds.max) continue
    return { phrase: match[0], value: unit === 'words' ? { maxWords: max } : { maxCharacters: max } }
  }
  return null
}

/** A word limit said of the whole application (else the first said outside any one question). */
function findOverallLimit(lines: Line[], questions: CallQuestion[]): number | undefined {
  let first: number | undefined
  for (const line of lines) {
    if (line.kind === 'blank' || line.kind === 'heading') continue
    for (const sentence of sentencesOf(line.text)) {
      const limit = limitIn(sentence)
      if (!limit || !('maxWords' in limit.value)) continue
      if (questions.some((question) => sentence.includes(question.text) || question.text.includes(sentence.trim()))) continue
      if (WHOLE_CUE.test(sentence)) return limit.value.maxWords
      first ??= limit.value.maxWords
    }
  }
  return first
}

function findDeadline(lines: Line[]): string | undefined {
  for (let index = 0; index < lines.length; index++) {
    if (!DEADLINE_CUE.test(lines[index].text)) continue
    // "Deadline" alone as a heading: the date is on the next line that says anything.
    const next = lines.slice(index + 1, index + 3).find((line) => line.kind !== 'blank')
    const date = dateIn(lines[index].text) ?? (lines[index].kind === 'heading' && next ? dateIn(next.text) : undefined)
    if (date) return date
  }
  return undefined
}

function dateIn(text: string): string | undefined {
  for (const { pattern, order } of DATES) {
    const match = pattern.exec(text)
    if (!match) continue
    const parts = Object.fromEntries(order.map((name, index) => [name, match[index + 1]])) as Record<'day' | 'month' | 'year', string>
    const month = /^\d+$/.test(parts.month) ? Number(parts.month) : MONTHS.indexOf(parts.month.slice(0, 3).toLowerCase()) + 1
    const iso = `${parts.year}-${String(month).padStart(2, '0')}-${parts.day.padStart(2, '0')}`
    if (month >= 1 && isDay(iso)) return iso
  }
  return undefined
}

type Amounts = Pick<CallReading, 'amountMin' | 'amountMax' | 'currency'>

/** The first sentence that states the grants' size decides; a later one may only add a minimum it states as one. */
function findAmounts(lines: Line[]): Amounts {
  let found: Amounts | null = null
  for (const line of lines) {
    if (!MONEY.test(line.text)) continue
    for (const sentence of sentencesOf(line.text)) {
      if (!MONEY.test(sentence) || !AMOUNT_CUE.test(sentence)) continue
      const atLeast = AT_LEAST.exec(sentence)
      if (found) {
        if (found.amountMin === undefined && atLeast && /minimum|at least/i.test(atLeast[0])) {
          const amountMin = money(atLeast[2], atLeast[3])
          if (found.amountMax === undefined || amountMin <= found.amountMax) found.amountMin = amountMin
        }
        continue
      }
      const range = RANGE.exec(sentence)
      if (range && money(range[2], range[3]) <= money(range[4], range[5]))
        return { amountMin: money(range[2], range[3]), amountMax: money(range[4], range[5]), currency: currencyOf(range[1]) }
      const upTo = UP_TO.exec(sentence)
      if (upTo) found = { amountMax: money(upTo[2], upTo[3]), currency: currencyOf(upTo[1]) }
      else if (atLeast) found = { amountMin: money(atLeast[2], atLeast[3]), currency: currencyOf(atLeast[1]) }
    }
  }
  return found ?? {}
}

function money(figure: string, scale: string | undefined): number {
  const value = Number(figure.replace(/,/g, ''))
  const times = !scale ? 1 : /^k|thousand/i.test(scale) ? 1e3 : 1e6
  return Math.round(value * times)
}

function currencyOf(written: string): string {
  return written.trim().toUpperCase()
}

function findName(text: string, lines: Line[]): string | undefined {
  const match = FUNDER_NAME.exec(text.slice(0, 3000))
  const name = match?.[0] ?? lines.find((line) => line.kind === 'heading')?.text
  if (!name) return undefined
  return bounded(name.replace(/^the\s+/i, '').trim(), FUNDER_LIMITS.name)
}

// The funder's terms: the phrases it puts in quotation marks, and the phrases it repeats, those of its priorities first.

const TERMS_KEPT = 12
/** A funder's vocabulary shows in the first pages of its call: phrases are counted there. */
const TERMS_READ = 40_000

function findTerms(text: string, priorities: string[]): string[] {
  const head = text.slice(0, TERMS_READ)
  const quoted = [...head.matchAll(/[“"]([^”"\n]{3,60})[”"]/g)]
    .map((match) => match[1].trim())
    .filter((phrase) => phrase.split(/\s+/).length <= 5 && contentWords(phrase).length > 0)
  const counts = countPhrases(head)
  const inPriorities = countPhrases(priorities.join('\n'))
  const repeated = [...counts]
    .filter(([phrase, count]) => count >= 2 || (inPriorities.get(phrase) ?? 0) > 0)
    .sort(([a, countA], [b, countB]) => Number(inPriorities.has(b)) - Number(inPriorities.has(a)) || countB - countA || b.length - a.length)
    .map(([phrase]) => phrase)
  const kept: string[] = []
  for (const phrase of [...quoted, ...repeated]) {
    const lower = phrase.toLowerCase()
    if (kept.some((term) => term.toLowerCase().includes(lower) || lower.includes(term.toLowerCase()))) continue
    kept.push(phrase)
    if (kept.length === TERMS_KEPT) break
  }
  return kept.map((term) => bounded(term, FUNDER_LIMITS.term))
}

function countPhrases(text: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const piece of text.toLowerCase().split(/[\n.;:!?()[\]"“”|,]+/)) {
    const words = piece.split(/\s+/).filter(Boolean)
    let run: string[] = []
    const flush = () => {
      for (let size = 2; size <= 3; size++)
        for (let at = 0; at + size <= run.length; at++) {
          const phrase = run.slice(at, at + size).join(' ')
          counts.set(phrase, (counts.get(phrase) ?? 0) + 1)
        }
      run = []
    }
    for (const word of words) {
      const bare = word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
      if (/^\p{L}[\p{L}-]{2,}$/u.test(bare) && isContentWord(bare)) run.push(bare)
      else flush()
    }
    flush()
  }
  return counts
}

function sentencesOf(text: string): string[] {
  return /[.!?]\s/.test(text) ? [...sentences(text)].map((sentence) => sentence.trim()) : [text]
}

function unique(texts: string[]): string[] {
  const seen = new Set<string>()
  return texts.filter((text) => {
    const key = text.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function bounded(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
