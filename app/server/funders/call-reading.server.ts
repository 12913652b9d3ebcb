import { setImmediate } from 'node:timers/promises'
import { trimEndMatching } from '~/shared/text'
import { FUNDER_LIMITS, isDay, LIMIT_BOUNDS, type CallQuestion, type CallReading } from '~/shared/funder-schema'
import { callLines, roleOf, roleOfLeadIn, sentencesOf, type Line, type Role } from '~/server/funders/call-lines.server'
import { contentWords, isContentWord } from '~/server/language/topics.server'
import { tag } from '~/server/language/tagger.server'

// A funder's call read by plain code (docs/decisions/030), one pass per thing looked for, each line's work bounded.

// Never from inside a run of digits, and at most six: a line of digits made these backtrack over every start and length.
/** "1,500", "1 500" (as French and Canadian English write it), "1500". */
const LIMIT_NUMBER = String.raw`(?<!\d)(\d{1,3}(?:,\d{3})+|(?<!\b(?:section|question|part|step|item|q)\s?)\d{1,3}(?: \d{3})+|\d{1,6})(?!\d)`
const LIMIT_UNIT = String.raw`(words?|characters?|chars)`
/** "max 250 words", "(300 words)", "[1,000 characters]", "up to 1,500 characters", "250-word limit", "— 250 characters". */
const LIMIT_PATTERNS = [
  new RegExp(
    String.raw`(?:max(?:imum)?\.?(?:\s+of)?|up to|no more than|not (?:to )?exceed(?:ing)?|limit(?:ed)?(?:\s+(?:of|to))?|at most|within|no longer than)\s*:?\s*${LIMIT_NUMBER}\s*${LIMIT_UNIT}`,
    'i',
  ),
  new RegExp(String.raw`${LIMIT_NUMBER}[\s-]*${LIMIT_UNIT}\s*(?:max(?:imum)?|limit|or (?:less|fewer))`, 'i'),
  new RegExp(
    String.raw`[([]\s*${LIMIT_NUMBER}\s*${LIMIT_UNIT}(?:,?\s*(?:including|excluding|with|without|not counting)\s+spaces)?\s*[)\]]`,
    'i',
  ),
  new RegExp(String.raw`\s[–—-]\s*${LIMIT_NUMBER}\s*${LIMIT_UNIT}\s*$`, 'i'),
]
const WHOLE_CUE = /\b(?:narrative|proposal|application|statement|submission|case for support|letter|response|total|overall|entire|whole)\b/i

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const MONTH = String.raw`(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?`
const DATES = [
  { pattern: new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH},?\s+(\d{4})\b`, 'i'), order: ['day', 'month', 'year'] },
  { pattern: new RegExp(String.raw`\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'i'), order: ['month', 'day', 'year'] },
  { pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/, order: ['year', 'month', 'day'] },
  // "16/04/2027" as most of the world writes it; "04/16/2027" is read the American way only when it cannot be the other.
  { pattern: /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/, order: ['day', 'month', 'year'] },
] as const
const DEADLINE_CUE =
  /deadline|\b(?:open|runs?) (?:[\w ,]{0,40})?(?:until|through)\b|reach us (?:by|before)|received (?:by|before)|closing date|\bclos(?:e|es|ing)\b|\bdue\b|submit(?:ted)?\s+(?:by|before|no later)|no later than|must (?:be )?(?:received|submitted)|applications? (?:are )?(?:due|close)/i

const CURRENCY = String.raw`(?:US\$|CA\$|AU\$|NZ\$|[$£€¥₹]|USD|EUR|GBP|CAD|AUD|NZD|KES)`
const AMOUNT = String.raw`(\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+(?!\d)|\d+(?:\.\d+)?)\s?(k|m|million|thousand)?\b`
const MONEY = new RegExp(String.raw`(${CURRENCY})\s?${AMOUNT}`, 'i')
const RANGE = new RegExp(String.raw`(${CURRENCY})\s?${AMOUNT}\s*(?:to|-|–|—|and)\s*(?:${CURRENCY})?\s?${AMOUNT}`, 'i')
const UP_TO = new RegExp(
  String.raw`(?:up to|maximum(?: (?:grant|award|request))?(?: of)?:?|max\.?|not (?:to )?exceed|no more than|at most)\s*(${CURRENCY})\s?${AMOUNT}`,
  'i',
)
const AT_LEAST = new RegExp(String.raw`(?:minimum(?:[\w ]{0,30}?\b(?:is|of))?|min\.?|at least|from)\s*(${CURRENCY})\s?${AMOUNT}`, 'i')
const AMOUNT_CUE = /grant|award|request|fund|amount|budget|range|between|up to|sum/i

const CAPITALISED = String.raw`[A-Z][\p{L}'’&.-]*`
const FUNDER_NAME = new RegExp(
  String.raw`(?:${CAPITALISED}[ \t]+(?:(?:of|for|and|the|&)[ \t]+)?){0,6}(?:Foundation|Trust|Fund|Council|Department|Agency|Ministry|Commission|Authority|Endowment|Philanthropies|Giving|Corporation|Company|Bank|Group|Institute|Society|Inc\.?|plc|LLC|Ltd\.?)\b(?:[ \t]+(?:of|for|on)[ \t]+(?:the[ \t]+)?${CAPITALISED}(?:[ \t]+(?:and[ \t]+)?${CAPITALISED}){0,4})?`,
  'u',
)

export async function readCall(raw: string): Promise<CallReading> {
  const text = raw.replace(/\r\n?/g, '\n').replace(/[\u00a0\u2007\u202f]/g, ' ')
  const lines = callLines(text)
  await setImmediate()
  const questions = findQuestions(lines)
  await setImmediate()
  const amounts = findAmounts(lines)
  await setImmediate()
  const priorities = findPriorities(lines)
  await setImmediate()
  const reading: CallReading = { priorities: priorities.map((text) => ({ text })), questions, terms: [], ...amounts }
  const name = findName(text, lines)
  if (name) reading.name = name
  reading.terms = findTerms(text, priorities).filter((term) => !ofTheFundsName(term, [name ?? '', titleOf(lines)]))
  await setImmediate()
  const maxWords = findOverallLimit(lines, questions)
  if (maxWords) reading.maxWords = maxWords
  const deadline = findDeadline(lines)
  if (deadline) reading.deadline = deadline
  return reading
}

type Found = { text: string; weight: number }

function findPriorities(lines: Line[]): string[] {
  const found: Found[] = []
  let table: Table | null = null
  for (const line of lines) {
    if (line.kind !== 'row') table = null
    if (line.kind === 'item' && listRole(line) === 'priorities' && isPriority(line)) found.push({ text: unbold(line.text), weight: 0 })
    else if (line.kind === 'row') {
      // A table's header may say what it holds: "| Issue area | What we want to see |".
      table ??= { scoring: scoring(line), header: null, role: listRole(line) ?? roleOf(line.text) }
      const row = table.role === 'priorities' ? priorityOfRow(line.text, table) : null
      if (row) found.push(row)
    } else if (line.kind === 'text') found.push(...prioritiesInProse(line))
  }
  // A stable sort: without weights, the call's own order.
  return unique(found.sort((a, b) => b.weight - a.weight).map(({ text }) => bounded(text, FUNDER_LIMITS.priority))).slice(
    0,
    FUNDER_LIMITS.priorities,
  )
}

/** What a list is: a lead-in ending in a colon says, unless it names priorities in another section ("Who can apply"); else the section. */
function listRole(line: Line): Role | null {
  const led = line.leadIn?.endsWith(':') ? roleOfLeadIn(line.leadIn) : null
  if (led && led !== 'priorities') return led
  if (line.section && line.section !== 'priorities') return line.section
  return led ?? line.section
}

/** A list or table that scores applications holds a priority only where it says what the project will do. */
function scoring(line: Line): boolean {
  return SCORING.test(`${line.leadIn ?? ''} ${line.under ?? ''}`)
}
const THE_PROJECT_WILL = /^the (?:project|initiative|program(?:me)?|work|activity)\b/i

/** "The project benefits the wider community", or the same with its subject left out: "Improves access to healthy food". */
function saysWhatTheProjectWillDo(description: string): boolean {
  return THE_PROJECT_WILL.test(description) || tag(description.slice(0, 60))[0]?.pos === 'VERB'
}

/** Lines about the applicant or the application (its budget, its plans, its track record) rather than what the work does. */
const ABOUT_THE_APPLICANT =
  /^(?:have|has|hold|can show)\b|^(?:groups|organi[sz]ations|applicants|charities)\s+(?:based|with|that have|which have|whose)\b|\bup to (?:US|CA|AU|NZ)?[$£€]|\bof the (?:strands|themes|areas|priorities|objectives|criteria)\b|\b(?:areas|criteria|priorities) (?:above|below)\b|\bfits? (?:with )?(?:one|the|our|an?)\b|\b(?:budget|quotes?|value for money|cost-effective|costs? (?:is|are)\b|(?:realistic|reasonable) costs|track record|governance|organi[sz]ational capacity|capacity to deliver|financial (?:management|statements)|measure (?:whether|them|it)|(?:will|can) be measured|evaluat\w*|logic model|letters? of (?:support|commitment)|the (?:organi[sz]ation|applicant|group|application) (?:has|have|shows?|can))\b/i
const SCORING = /scor(?:e|ed|es|ing)\b|assess|marks\b|points\b/i

function isPriority(item: Line): boolean {
  return !ABOUT_THE_APPLICANT.test(item.text) && (!scoring(item) || saysWhatTheProjectWillDo(item.text))
}

type Table = { scoring: boolean; header: string[] | null; role: Role | null }

/** A row of a table of priorities names one, and may describe and weigh it. */
function priorityOfRow(row: string, table: Table): Found | null {
  const cells = row
    .replace(/^\||\|$/g, '')
    .split(/\s\|\s|\s*\|\s*|\t+/)
    .map((cell) => cell.trim())
  if (cells.every((cell) => /^:?-{2,}:?$|^$/.test(cell))) return null
  if (!table.header) {
    table.header = cells
    return null
  }
  // A rank or number before the name ("| 1 | Essential repairs | fixing or replacing… |") is no part of it.
  while (cells.length > 1 && /^\d{1,3}\.?$/.test(cells[0])) cells.shift()
  const weightCell = cells.slice(1).find((cell) => /^\d{1,3}\s*(?:%|percent|points?|pts|marks?)?$/i.test(cell))
  const description = cells
    .slice(1)
    .filter((cell) => cell !== weightCell && cell.length > 12 && !/^(?:scored|met or)/i.test(cell))
    .sort((a, b) => b.length - a.length)[0]
  if (table.scoring && !(description && saysWhatTheProjectWillDo(description))) return null
  if (ABOUT_THE_APPLICANT.test(cells.join(' '))) return null
  const text = description ? `${cells[0].replace(/[:.]$/, '')}: ${description}` : cells[0]
  return { text, weight: weightCell ? Number(/\d+/.exec(weightCell)![0]) : 0 }
}

/** A paragraph of a priorities section that says what is funded: "Projects that…", "We will consider…". */
const PRIORITY_PARAGRAPH =
  /^(?:\*\*[^*]{1,60}\*\*:?\s*)?(?:in [^,]{1,40},\s*)?(?:(?:(?:these|such) (?:projects|programs|programmes|grants|initiatives)\b)|(?:projects|programs|programmes|initiatives|work|activities)\s+(?:that|which)\b|we (?:will |also )?(?:consider|fund|support|want to (?:fund|support)))/i
/** What the fund is for, said of itself: "The fund's objective is to…", "Explore and Create helps artists…". */
const PURPOSE =
  /^(?:(?:the|this|our) (?:fund|programme|program|scheme|stream|grant)(?:['’]s)? (?:main )?(?:objective|aim|purpose|focus) is to\b|(?:the|this) (?:fund|programme|program|scheme|stream) (?:focuses on|aims to|exists to|is aimed at)\b)/i
const NAMED_PURPOSE = /^(?:It|(?:[A-Z][\w'’&-]*\s+){1,4})(?:helps|aims to|exists to)\b/
/** A sentence anywhere that says what is favoured: "We are also keen to hear from projects that help…". */
const PREFERENCE =
  /\b(?:(?:particularly|especially) (?:welcomes?|interested in|want to (?:reach|fund|support|hear from))|give (?:particular|special|extra) (?:weight|attention|consideration) to|(?:will )?(?:also )?favou?r|lean towards|keen to hear from|want to (?:fund|support)|(?:priority|preference) (?:will be|is) given to|we (?:will )?(?:prioriti[sz]e|especially welcome)|we are (?:particularly |especially )?(?:looking for|seeking|interested in))\s+(.{8,})/i
const WHAT_IS_FAVOURED =
  /^(?:(?:new |local )?(?:projects|proposals|applications|programs|programmes|initiatives|work|activities|organi[sz]ations|groups|charities)\s+(?:that|which|who|in|for|with|working|led by)\b|work (?:with|on|to)\b)/i
/** Refusals, conditions, and sentences that announce what follows ("…in three areas", "set out below"). */
const NOT_A_PRIORITY =
  /\b(?:not|cannot|can['’]t|won['’]t|unless|must|below|as follows|any project|a (?:broad|wide) range)\b|\b(?:two|three|four|five|six|seven|\d) (?:areas|programmes|programs|strands|themes|pillars|priorities|outcomes|objectives|streams|kinds|types)\b/i

function prioritiesInProse(line: Line): Found[] {
  if (line.section && line.section !== 'priorities') return []
  const found: Found[] = []
  for (const sentence of sentencesOf(line.text)) {
    if (/:$/.test(sentence)) continue
    const stated =
      (line.section === 'priorities' && PRIORITY_PARAGRAPH.test(sentence)) || PURPOSE.test(sentence) || NAMED_PURPOSE.test(sentence)
    if (stated && !NOT_A_PRIORITY.test(sentence)) {
      found.push({ text: unbold(sentence), weight: 0 })
      continue
    }
    const match = PREFERENCE.exec(sentence)
    // "…projects that bring together neighbours who might not otherwise meet": only a "not" before the cue turns it round.
    if (!match || NOT_A_PRIORITY.test(sentence.slice(0, match.index))) continue
    const favoured = trimEndMatching(match[1], /[.;:]/)
    // Under a heading of priorities, whatever is favoured is one; elsewhere, only work or those who do it.
    if (line.section === 'priorities' || WHAT_IS_FAVOURED.test(favoured)) found.push({ text: capitalise(favoured), weight: 0 })
  }
  return found
}

const ASKS =
  /^(?:[\p{L} ]{1,40}:\s*)?(?:describe|explain|tell us|outline|provide|list|summari[sz]e|share|give|set out|identify|present|attach|show|state|detail|briefly|what|how|why|who|which|where|when)\b/iu
const EVERY_ANSWER = /\b(?:each|every|all) (?:answer|question|response|box|field)s?\b/i
/** "(1,200 characters, excluding spaces)", "The form counts characters without spaces", "spaces are not counted". */
const SPACES_LEFT_OUT =
  /\b(?:not counting|excluding|without|not including|excludes?)\s+(?:the\s+)?spaces\b|\bspaces (?:are |is )?(?:not counted|not included|excluded|do not count|don't count)\b/i
/** "including spaces", "Character limits include spaces", "(spaces are counted)". */
const SPACES_COUNTED = /\b(?:including|with|includes?)\s+spaces\b|\bspaces (?:are |is )?(?:counted|included)\b/i

/** Whether a text says spaces count toward a character limit: true, false, or null when it does not say. */
function spacesCount(text: string): boolean | null {
  if (SPACES_LEFT_OUT.test(text)) return false
  return SPACES_COUNTED.test(text) ? true : null
}

/** What the call says of spaces once for every answer ("Each answer is limited by characters, not counting spaces"). */
function spacesOfTheCall(lines: Line[]): boolean | null {
  for (const line of lines) {
    // "Each answer: 1,000 characters, excluding spaces" says it of every answer; a question's own line, only of its own.
    if (line.kind === 'blank' || (limitIn(line.text) && !EVERY_ANSWER.test(line.text))) continue
    const said = /\bcharacter|\blimit/i.test(line.text) ? spacesCount(line.text) : null
    if (said !== null) return said
  }
  return null
}

function findQuestions(lines: Line[]): CallQuestion[] {
  const questions: CallQuestion[] = []
  let everyAnswer: Limit | null = null
  const callSpaces = spacesOfTheCall(lines)
  // Characters count spaces unless the question, else the call, says they do not.
  const withSpacesRule = (value: Limit, text: string): Limit =>
    'maxCharacters' in value && (spacesCount(text) ?? callSpaces) === false ? { ...value, withoutSpaces: true } : value
  for (const line of lines) {
    if (line.kind === 'heading') everyAnswer = null
    if (line.kind === 'heading' || line.kind === 'blank' || line.kind === 'row') continue
    const found = limitIn(line.text)
    const limit = found && { ...found, value: withSpacesRule(found.value, line.text) }
    if (limit && line.kind === 'text' && EVERY_ANSWER.test(line.text)) {
      everyAnswer = limit.value
      continue
    }
    const rest = limit ? withoutLimit(line.text, limit.phrase) : line.text
    // A line that only states a limit ("Maximum 250 words") belongs to the question above it.
    if (limit && wordsIn(rest) < 2) {
      const last = questions.at(-1)
      if (last && !last.maxWords && !last.maxCharacters) Object.assign(last, limit.value)
      continue
    }
    // "Project summary (50 words)": a heading of the form with its own limit is a question too.
    if (!isQuestion(line, rest, limit !== null) || wordsIn(rest) < (limit ? 2 : 3)) continue
    questions.push({ text: bounded(rest, FUNDER_LIMITS.question), ...(limit?.value ?? everyAnswer ?? {}) })
    if (questions.length === FUNDER_LIMITS.questions) break
  }
  return questions
}

/** A line that asks, or an item of a list with a limit of its own ("Project summary (50 words)"). */
function isQuestion(line: Line, rest: string, limited: boolean): boolean {
  const asks = rest.includes('?') || ASKS.test(rest) || (limited && line.kind === 'item')
  if (line.kind === 'item') {
    const role = listRole(line)
    return role === 'questions' || (asks && role !== 'priorities' && role !== 'exclusions' && role !== 'eligibility')
  }
  return line.section === 'questions' && asks && !/:$/.test(rest)
}

/** A limit standing apart ("(250 words maximum)", "… Maximum 250 words") is taken out; inside a sentence it is the question's. */
function withoutLimit(text: string, phrase: string): string {
  const at = text.indexOf(phrase)
  const before = text.slice(0, at)
  const bracketed = /[([]\s*[^()[\]]*$/.test(before) && /^[^()[\]]*[)\]]/.test(text.slice(at + phrase.length))
  if (bracketed) return text.replace(/\s*[([][^()[\]]*[)\]]/, (bracket) => (bracket.includes(phrase) ? '' : bracket)).trim()
  if (!before.trim() || /[.?!:]\s*[–—-]?\s*$/.test(before) || /^\s[–—-]/.test(phrase))
    return trimEndMatching(before.trim() ? before : text.slice(at + phrase.length), /[\s,;:–—-]/).trim()
  return text
}

const wordsIn = (text: string) => text.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length

type Limit = { maxWords: number } | { maxCharacters: number; withoutSpaces?: true }

function limitIn(text: string): { phrase: string; value: Limit } | null {
  for (const pattern of LIMIT_PATTERNS) {
    const match = pattern.exec(text)
    if (!match) continue
    const max = Number(match[1].replace(/[, ]/g, ''))
    const unit = /^w/i.test(match[2]) ? 'words' : 'characters'
    const bounds = LIMIT_BOUNDS[unit]
    if (max < bounds.min || max > bounds.max) continue
    return { phrase: match[0], value: unit === 'words' ? { maxWords: max } : { maxCharacters: max } }
  }
  return null
}

/** A word limit said of the whole application; in a call with no questions, the first limit it states. */
function findOverallLimit(lines: Line[], questions: CallQuestion[]): number | undefined {
  let first: number | undefined
  for (const line of lines) {
    if (line.kind === 'blank' || line.kind === 'heading') continue
    for (const sentence of sentencesOf(line.text)) {
      const limit = limitIn(sentence)
      if (!limit || !('maxWords' in limit.value) || EVERY_ANSWER.test(sentence)) continue
      if (questions.some((question) => sentence.includes(question.text) || question.text.includes(sentence.trim()))) continue
      if (WHOLE_CUE.test(sentence.replace(limit.phrase, ''))) return limit.value.maxWords
      first ??= limit.value.maxWords
    }
  }
  return questions.length ? undefined : first
}

const NO_DEADLINE = /\bno (?:set |fixed )?(?:closing dates?|deadlines?)\b/i

function findDeadline(lines: Line[]): string | undefined {
  for (let index = 0; index < lines.length; index++) {
    // "There is no closing date…; applications complete by 14/01/2027 go to the March panel": a rolling call's guide.
    if (!DEADLINE_CUE.test(lines[index].text) || NO_DEADLINE.test(lines[index].text)) continue
    // "Deadline" alone as a heading: the date is on the next line that says anything.
    const next = lines.slice(index + 1, index + 3).find((line) => line.kind !== 'blank')
    const text = lines[index].text
    const cue = DEADLINE_CUE.exec(text)!
    // After the cue ("closes on 31 May 2027"), after "until" where it says so ("Open from 1 May until 30 June"), else any on the line.
    const until = /\b(?:until|through)\b/i.exec(cue[0])
    const after = text.slice(cue.index + (until?.index ?? 0))
    const date = dateIn(after) ?? dateIn(text) ?? (lines[index].kind === 'heading' && next ? dateIn(next.text) : undefined)
    if (date) return date
  }
  return undefined
}

function dateIn(text: string): string | undefined {
  for (const { pattern, order } of DATES) {
    const match = pattern.exec(text)
    if (!match) continue
    const parts = Object.fromEntries(order.map((name, index) => [name, match[index + 1]])) as Record<'day' | 'month' | 'year', string>
    if (Number(parts.month) > 12 && Number(parts.day) <= 12) [parts.day, parts.month] = [parts.month, parts.day]
    const month = /^\d+$/.test(parts.month) ? Number(parts.month) : MONTHS.indexOf(parts.month.slice(0, 3).toLowerCase()) + 1
    const iso = `${parts.year}-${String(month).padStart(2, '0')}-${parts.day.padStart(2, '0')}`
    if (month >= 1 && isDay(iso)) return iso
  }
  return undefined
}

type Amounts = Pick<CallReading, 'amountMin' | 'amountMax' | 'currency'>

/** The grants' size now: the largest maximum, the smallest minimum; never from the past, a whole budget or a typical grant. */
function findAmounts(lines: Line[]): Amounts {
  let found: Amounts = {}
  const add = (value: number, bound: 'amountMin' | 'amountMax', written: string) => {
    const current = found[bound]
    const better = current === undefined || (bound === 'amountMax' ? value > current : value < current)
    if (better) found = { ...found, [bound]: value, currency: found.currency ?? currencyOf(written) }
  }
  // A table with a "Maximum award" column: the money in that column; a row that is a pair is read as a sentence.
  let maximumColumn = -1
  for (const line of lines) {
    if (line.kind === 'row') {
      const cells = line.text.replace(/^\||\|$/g, '').split('|')
      const headerAt = cells.findIndex((cell) => /\bmax(?:imum)?\b.*\b(?:award|grant|amount)|\b(?:award|grant) size/i.test(cell))
      if (headerAt >= 0 && !MONEY.test(line.text)) {
        maximumColumn = headerAt
        continue
      }
      const cell = maximumColumn >= 0 ? cells[maximumColumn] : undefined
      if (cell !== undefined) {
        if (!HISTORIC.test(cell)) for (const match of cell.matchAll(MONEYS)) add(money(match[2], match[3]), 'amountMax', match[1])
        continue
      }
    } else maximumColumn = -1
    if (!MONEY.test(line.text)) continue
    // "Up to $500 (raised from $300 in 2025)": the figure in brackets is the past.
    const now = line.text.replace(/\([^()]*\)/g, (aside) => (HISTORIC.test(aside) ? '' : aside))
    for (const sentence of sentencesOf(now)) {
      if (!MONEY.test(sentence) || NOT_THE_GRANT.test(sentence) || HISTORIC.test(sentence)) continue
      // A range of money is a grant's size; a single figure is one only where the sentence says so.
      const range = RANGE.exec(sentence)
      if (range && money(range[2], range[3]) <= money(range[4], range[5])) {
        add(money(range[2], range[3]), 'amountMin', range[1])
        add(money(range[4], range[5]), 'amountMax', range[1])
        continue
      }
      if (!AMOUNT_CUE.test(sentence)) continue
      const upTo = UP_TO.exec(sentence)
      if (upTo) add(money(upTo[2], upTo[3]), 'amountMax', upTo[1])
      const atLeast = AT_LEAST.exec(sentence)
      if (atLeast) add(money(atLeast[2], atLeast[3]), 'amountMin', atLeast[1])
    }
  }
  if (found.amountMin !== undefined && found.amountMax !== undefined && found.amountMin > found.amountMax) delete found.amountMin
  return found
}

const MONEYS = new RegExp(MONEY.source, 'gi')
const HISTORIC =
  /\b(?:until recently|until (?:19|20)\d\d|previously|formerly|used to|earlier|grew out of|(?:raised|increased|doubled|up) from|in the (?:19|20)\d\d|before (?:the |19|20)|(?:in|during) (?:19|20)\d\d\b[^.]*\b(?:was|were|gave|made)|last (?:year|round|cycle)\b[^.]*\b(?:was|were))|\bthe (?:ceiling|maximum|largest grant) was\b/i
const NOT_THE_GRANT =
  /\b(?:income|revenue|turnover|reserves|endowment|in total|expects? to have|(?:is|are) available (?:in total|this year)|most (?:\w+ )?grants|typical(?:ly)?|on average|item (?:over|costing)|quotes?|insurance|(?:project|total) cost|instead|separate|another (?:programme|program|fund))\b/i

function money(figure: string, scale: string | undefined): number {
  const value = Number(figure.replace(/[, ]/g, ''))
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

function titleOf(lines: Line[]): string {
  const first = lines.find((line) => line.kind !== 'blank')
  const heading = lines.find((line) => line.kind === 'heading')
  // A call of prose has no title: its first sentence's words are the call's, not its name's.
  return heading?.text ?? (first && first.text.length <= 90 && !/[.!?]/.test(first.text) ? first.text : '')
}

/** A term every word of which is in the fund's name or title ("rural communities" of "Strengthening Rural Communities"). */
function ofTheFundsName(term: string, names: string[]): boolean {
  const named = new Set(names.flatMap((name) => contentWords(name.toLowerCase())))
  const words = contentWords(term.toLowerCase())
  return words.length > 0 && words.every((word) => named.has(word))
}

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

/** "**Involve:** we fund…" as a person reads it: "Involve: we fund…". */
function unbold(text: string): string {
  return text.replace(/\*\*([^*]+)\*\*/g, '$1')
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
