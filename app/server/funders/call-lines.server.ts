import { sentences } from '~/shared/variant-limits'

// A call as a reader sees it: headings, list items, rows and prose; a line's section and lead-in say what its list is.

export type Role = 'priorities' | 'questions' | 'exclusions' | 'eligibility' | 'other'
export type LineKind = 'heading' | 'item' | 'row' | 'text' | 'blank'

export type Line = {
  kind: LineKind
  text: string
  /** The role of the section the line is in: the nearest heading above it that has one. */
  section: Role | null
  /** For items and rows: the prose line just before their list, in the same section ("…at least one of these:"). */
  leadIn?: string
  /** For a heading: how deep it is (1-6 for "#"s, 7 for a plain or bold line with a role, 8 for one without). */
  level?: number
  /** The nearest heading above the line, whatever its role. */
  under?: string
}

/** Longer lines are prose a person would not call a heading; shorter ones, with no full stop, are headings of their own. */
const HEADING_MAX = 90
const PLAIN_HEADING_MAX = 60
const PLAIN_HEADING_WORDS = 8
const NAMING_HEADING_WORDS = 12
/** "- ", "1.", "(a)", "(iv)", "Q12.", "3.1": the markers lists and forms number their lines with. */
export const ITEM_PREFIX = /^(?:[-*•●▪◦‣–—]|\(?\d{1,2}[.)]|\d{1,2}\.\d{1,2}\.?|Q\d{1,2}[.:)]|\(?[a-hA-H][.)]|\([ivx]{1,4}\))\s+/u

/** Most particular first: "What we cannot fund" is an exclusion before it is about funding. */
const ROLES: [Role, RegExp][] = [
  [
    'exclusions',
    /(?:\bnot|n['’]t|\bnever|\bcannot|\bunable to)\s+(?:(?:usually|normally|generally|be able to)\s+)?(?:fund|support|consider|pay|accept)|exclu(?:sions?|ded?)\b|ineligible|restrictions|declined?\b/i,
  ],
  [
    'eligibility',
    /who (?:can(?:not)?|may|is eligible to) apply|eligibility|(?:is|are|be) (?:not )?eligible|requirements|you can apply if|you will need|groups that may apply|before you apply|applicants? must|must (?:be (?:a|an|one|registered|based|located|incorporated|constituted)\b|have\b|hold\b)|(?:open|available) to\b/i,
  ],
  [
    'questions',
    /questions?\b|\basks?\b|asked\b|what to (?:include|tell us)|tell us\b|application (?:form|content)|narrative|project proposal|your (?:proposal|application) should|letter of (?:inquiry|interest)|address the following/i,
  ],
  // Fields and disciplines a fund accepts are where a project sits, not what it must do.
  ['other', /\b(?:fields|sectors|disciplines|art ?forms)\b|how much|grant sizes?\b|how to apply|key dates|timeline|contact/i],
  [
    'priorities',
    /priorit|criteri|what we (?:can )?(?:fund|support|look for|want|invest)|we(?:['’]re| are)? look(?:ing)? for|focus|funding (?:areas?|themes?)|themes?\b|objectives?\b|aims?\b|assess|scor(?:e|ed|ing)\b|selection|goals\b|outcomes?\b|purposes?\b|mission areas?|pillars?\b|programme areas?|program areas?|issues\b|our (?:programmes|programs)\b|strands?\b|what we want|want to (?:achieve|fund|support|see)|we (?:will )?(?:fund|support|invest in|favou?r|prioriti[sz]e)|preference|interested in|projects? (?:should|must|will)|(?:initiative|program(?:me)?|proposal)s? should|at least one of|one or more of|in the lives of|at least one (?:issue|area|theme|priority|outcome|objective)|\b(?:grants?|funding|the (?:fund|programme|program)) (?:will )?(?:supports?|funds?|covers?|pays? for)\b/i,
  ],
]

/** What a lead-in says its list is: one that asks for answers holds questions, whatever else it mentions. */
export function roleOfLeadIn(text: string): Role | null {
  if (/\b(?:questions?|asks?|asked|answer)\b/i.test(text)) return 'questions'
  return /\bpriorit/i.test(text) && !/\bwho can apply\b/i.test(text) ? 'priorities' : roleOf(text)
}

export function roleOf(text: string): Role | null {
  return ROLES.find(([, pattern]) => pattern.test(text))?.[0] ?? null
}

/** A heading that only names criteria ("Core criteria" under "Eligibility and criteria") keeps its parent's role. */
function roleUnder(heading: string, parent: Role | null): Role | null {
  const role = roleOf(heading)
  const onlyCriteria = role === 'priorities' && /criteri/i.test(heading) && !/priorit|fund|outcome|objective|aim/i.test(heading)
  return onlyCriteria && (parent === 'eligibility' || parent === 'exclusions') ? parent : role
}

/** A paragraph longer than this is cut into pieces of at most this length, each then read sentence by sentence. */
const LINE_MAX = 1000
/** The lines read: about sixty pages of a call, more than any call's priorities, questions and dates need. */
const LINES_READ = 4000

export function callLines(text: string): Line[] {
  const raw: string[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) {
      if (raw.at(-1) !== '') raw.push('')
    } else for (const piece of splitLong(line)) if (raw.length < LINES_READ) raw.push(piece)
    if (raw.length >= LINES_READ) break
  }
  return placed(raw.slice(0, LINES_READ).map(kindOf))
}

type Bare = { kind: LineKind; text: string; level?: number }

function kindOf(line: string): Bare {
  const trimmed = line.trim().replace(/\s+/g, ' ')
  if (!trimmed) return { kind: 'blank', text: '' }
  const heading = /^(#{1,6})\s+(.*)$/.exec(trimmed)
  if (heading) return { kind: 'heading', text: heading[2].replace(/[*_]+/g, '').trim(), level: heading[1].length }
  const bold = /^\*\*([^*]+)\*\*:?$/.exec(trimmed)
  if (bold) return plainHeading(bold[1].trim())
  if (ITEM_PREFIX.test(trimmed)) return { kind: 'item', text: trimmed.replace(ITEM_PREFIX, '').trim() }
  // A row keeps its tabs: they divide a pasted table's cells.
  if (/^\|.*\|$/.test(trimmed) || /\s\|\s|\t/.test(line)) return { kind: 'row', text: line.trim().replace(/[^\S\t]+/g, ' ') }
  const bare = trimmed.replace(/[*_]+/g, '').trim()
  // "Maximum 150 words" on a line of its own is a question's limit, and "We give priority to:" a lead-in, not headings.
  const short = bare.length <= PLAIN_HEADING_MAX && bare.split(' ').length <= PLAIN_HEADING_WORDS
  // A longer line that names a section ("Part 1: what we ask of applicants") is a heading too, as a PDF gives them.
  const naming = bare.length <= HEADING_MAX && bare.split(' ').length <= NAMING_HEADING_WORDS && roleOf(bare) !== null
  if (!/[.?!;,:]$/.test(bare) && /^\p{Lu}/u.test(bare) && (short || naming))
    return /\d+\s*(?:words?|characters?)/i.test(bare) ? { kind: 'text', text: trimmed } : plainHeading(bare)
  return { kind: 'text', text: trimmed }
}

/** A heading with no "#": below every marked heading, and below a plain one with a role when it has none itself. */
function plainHeading(text: string): Bare {
  const clean = text.replace(/:$/, '')
  return { kind: 'heading', text: clean, level: clean.length <= HEADING_MAX && roleOf(clean) ? 7 : 8 }
}

function placed(bare: Bare[]): Line[] {
  const open: { level: number; role: Role | null }[] = []
  let leadIn: string | undefined
  let previous: LineKind = 'blank'
  let under: string | undefined
  return bare.map((line): Line => {
    const above = under
    if (line.kind === 'heading') {
      while (open.length && open.at(-1)!.level >= line.level!) open.pop()
      const parent = open.findLast((heading) => heading.role)?.role ?? null
      open.push({ level: line.level!, role: roleUnder(line.text, parent) })
      leadIn = undefined
      under = line.text
    }
    const section = open.findLast((heading) => heading.role)?.role ?? null
    if (line.kind === 'text') leadIn = line.text
    const listed = line.kind === 'item' || line.kind === 'row'
    // A second list after the first, with no prose between, has no lead-in of its own.
    if (listed && previous !== 'blank' && previous !== 'text' && previous !== line.kind) leadIn = undefined
    if (line.kind !== 'blank') previous = line.kind
    return { ...line, section, ...(above ? { under: above } : {}), ...(listed && leadIn ? { leadIn } : {}) }
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

export function sentencesOf(text: string): string[] {
  return /[.!?]\s/.test(text) ? [...sentences(text)].map((sentence) => sentence.trim()) : [text]
}
