import { tag, untag, type Token } from '~/server/language/tagger.server'
import { sentencesOf } from '~/shared/variant-limits'
import { claimInputsOf, figureClaims, findClaims, type Claim, type ClaimInputs } from '~/server/narratives/claims.server'
import { runWorkOr } from '~/server/platform/work-pool.server'
import type { Conflict, Place } from '~/shared/application'

// The same thing counted differently across an application's texts: "212 families" here, "210" there (docs/decisions/054).

/** `frame`: the years its sentence names, its period ("week") and whether it is a target, which a comparison must respect. */
type Figure = { key: string; value: number; rounded: boolean; phrase: string; frame: Frame; context: Set<string> }
type Frame = { years: string; period: string; target: boolean }

const INPUT_FIELDS = ['missionStatement', 'keyPrograms', 'impactMetrics', 'targetAudience', 'geographicFocus', 'successStory'] as const
/** An application's first figures, each tagged in some 0.06 ms (a narrative has about 20): a crafted one costs no more. */
const FIGURES_READ = 300
const INPUT_FIGURES_READ = 100
const WINDOW = 80
const CONTEXT = 70
const CONTEXT_TAGS = new Set(['NOUN', 'PROPN', 'VERB'])
const BLAND = new Set(
  'be have do get make take give go come say use include help year month week day time number total people person we our us it'.split(' '),
)
/** Words that measure rather than name: "3 years" is a span, and "4,500 pounds of produce" counts the produce. */
const MEASURES = new Set(
  'year month week day hour minute decade time mile kilometre kilometer km acre hectare metre meter foot pound lb kilogram kg ton tonne litre liter gallon'.split(
    ' ',
  ),
)
/** "more than 200 families" bounds a figure, and fits any above it: not compared. */
const BOUND =
  /\b(?:over|more than|nearly|almost|up to|at least|at most|fewer than|less than|under|above|below|close to|upwards of|just over|just under)\s*$/i
/** "about 240,000 pounds" rounds it: compared, and found to disagree only beyond its rounding. */
const ROUNDED = /\b(?:about|around|approximately|approx\.?|roughly|some|an estimated|estimated)\s*$/i
const TARGET =
  /\b(?:will|would|expect|expects|expected|aim|aims|plan|plans|goal|target|targets|hope|intend|by the end|projected|forecast|grant period|next year)\b/i
const PERIOD =
  /\b(?:a|per|each|every)\s+(day|week|month|year)\b|\b(daily|weekly|monthly|annually|yearly|last year|this year|since|so far|to date)\b|\b(?:over|during|across) the (?:next |first |two |three |four |five |\d+ )?(years?|months?|grant)\b/i
const CLAUSE_END = /,|;|\band\b|\bwhile\b|\bbut\b/
/** "In 2023, we served…": a time said at a sentence's head frames all of it. */
const LEADING_TIME = /^\s*(?:in|during|by|since|over|for|throughout|from)\b[^,.]{0,40}?\b(?:19|20)\d{2}\b/i
const PERIODS: Record<string, string> = {
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  annually: 'year',
  yearly: 'year',
  'so far': 'since',
  'to date': 'since',
  years: 'span',
  months: 'span',
  grant: 'span',
}
const LIST_ITEM = /^\s*(?:[-*•–]|\d{1,2}[.)])\s/
const LEAD_IN_READ = 2000
/** Words for people as such: "28 people" who finished a course are its "26 graduates", told apart by what is said of them. */
const PEOPLE = new Set(
  'person people participant graduate client individual resident member user attendee learner adult newcomer beneficiary'.split(' '),
)
const SPANS = new Set(['year', 'month', 'week', 'day', 'hour', 'minute', 'decade', 'time'])
const UNITS: Record<string, string> = { lbs: 'pound', lb: 'pound', kgs: 'kilogram', kg: 'kilogram', kilo: 'kilogram', tonnes: 'tonne' }
const SLIP = 10
const HOUSEHOLDS = new Set(['family', 'household', 'home'])
const PART = new Set(['new', 'additional', 'extra', 'further', 'more', 'another', 'other'])
const YEAR = /(?<![\d,.])(?:19|20)\d{2}(?!\d|,\d)/g

/** A text's claims as kept, or null when they were not found yet: they are found here, in the pool. */
export type ConflictRequest = { texts: { question: Place; text: string; claims: readonly Claim[] | null }[]; inputs: ClaimInputs }

/** In the work pool: its tagging grows with the texts. Refused (the pool busy), no conflicts are shown rather than none found late. */
export async function findConflictsInPool(
  { texts, inputs }: ConflictRequest,
  options: { signal?: AbortSignal; owner: string },
): Promise<Map<Place, Conflict[]>> {
  const list = await runWorkOr<[Place, Conflict[]][], []>([], 'find-conflicts', { texts, inputs: claimInputsOf(inputs) }, options)
  return new Map(list)
}

export const conflictList = (texts: ConflictRequest['texts'], inputs: ClaimInputs) => [
  ...findConflicts(
    texts.map((text) => ({ ...text, claims: text.claims ?? findClaims(text.text, inputs) })),
    inputs,
  ),
]

/** Each text's figures that another text counts differently; never against itself, which may count two years. */
export function findConflicts(
  texts: { question: Place; text: string; claims: readonly Claim[] }[],
  inputs: ClaimInputs,
): Map<Place, Conflict[]> {
  let budget = FIGURES_READ
  const figures = texts.map(({ question, text, claims }) => {
    // Names are claims too; only figures use up the budget.
    const read = claims.filter((claim) => /\d/.test(claim.text)).slice(0, budget)
    budget -= read.length
    return { question, figures: figuresOf(text, read) }
  })
  const stated = inputFigures(inputs)
  const conflicts = new Map<Place, Conflict[]>()
  for (const { question, figures: own } of figures) {
    const found: Conflict[] = []
    const others = figures.filter((other) => other.question !== question)
    for (const figure of uniqueByValue(own)) {
      // A value another text states too, in whatever frame, is the value of some frame ("180 families in 2022").
      if (others.some((other) => other.figures.some((candidate) => candidate.key === figure.key && agree(candidate, figure)))) continue
      const elsewhere = others.flatMap((other) => {
        const same = other.figures.filter((candidate) => comparable(candidate, figure))
        return uniqueByValue(same).map((candidate) => ({ question: other.question, figure: candidate.phrase }))
      })
      if (!elsewhere.length) continue
      const matching = uniqueByValue(stated.filter((candidate) => comparable(candidate, figure)))
      found.push({ figure: figure.phrase, elsewhere, inputs: matching.map((candidate) => candidate.phrase) })
    }
    conflicts.set(question, found)
  }
  return conflicts
}

function inputFigures(inputs: ClaimInputs): Figure[] {
  const figures: Figure[] = []
  let budget = INPUT_FIGURES_READ
  for (const field of INPUT_FIELDS) {
    const text = inputs[field] ?? ''
    const read = figureClaims(text).slice(0, budget)
    budget -= read.length
    figures.push(...figuresOf(text, read))
  }
  return figures
}

function uniqueByValue(figures: Figure[]): Figure[] {
  const seen = new Set<string>()
  return figures.filter((figure) => {
    const id = `${figure.key}=${figure.value}`
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
}

export function figuresOf(text: string, claims: readonly Claim[]): Figure[] {
  if (!claims.length) return []
  const frames = sentenceFrames(text)
  const figures: Figure[] = []
  for (const claim of claims) {
    const kind = kindOf(claim.text)
    const value = kind && valueOf(claim.text)
    const before = text.slice(Math.max(0, claim.start - 20), claim.start)
    if (!kind || value === null || BOUND.test(before)) continue
    const window = text.slice(claim.end, claim.end + WINDOW).split(/[.;:!?\n]/)[0]
    // With no noun after it ("$9,600 towards…", "79 found paid jobs"), a figure is known by what is said around it.
    const frame = frames.find(({ start, end }) => claim.start >= start && claim.start < end)
    const lead = /[^,;()]*$/.exec(text.slice(Math.max(frame?.start ?? 0, claim.start - CONTEXT), claim.start))?.[0] ?? ''
    const thing =
      thingOf(tag(window)) ??
      thingBefore(lead) ??
      (kind === 'money' || (kind === 'count' && value >= 10) ? { key: '', lemma: '', words: '' } : null)
    if (!thing) continue
    const sentence = frame ? text.slice(frame.start, frame.end) : window
    // What is said of it, and its frame, are its own part of the sentence: "the body $21,000, two washers $9,600".
    const around = `${lead} ${window.split(/[,;:()]/)[0]}`
    const clause = `${lead} ${window.split(CLAUSE_END)[0]}`
    figures.push({
      key: `${kind}:${thing.key}`,
      value,
      rounded: ROUNDED.test(before),
      phrase: thing.words ? `${claim.text} ${thing.words}` : claim.text,
      frame: frameOf(sentence, `${leadInOf(text, claim.start)} ${clause}`, claim.text),
      context: new Set([...contextOf(around, thing.lemma), ...(thing.said ? [thing.said] : [])]),
    })
  }
  return figures
}

/** What is said of a figure: the nouns and verbs around it, but the thing it counts and words said of anything. */
function contextOf(around: string, thing: string): Set<string> {
  const words = tag(around).filter((token) => CONTEXT_TAGS.has(token.pos) && !BLAND.has(token.lemma) && token.lemma !== thing)
  return new Set(words.map((token) => token.lemma.toLowerCase()))
}

/** The line a list's items hang from ("By the end of the grant we expect:"), which frames each of them. */
function leadInOf(text: string, at: number): string {
  const lines = text.slice(Math.max(0, at - LEAD_IN_READ), at).split('\n')
  if (!LIST_ITEM.test(lines.at(-1) ?? '')) return ''
  for (let index = lines.length - 2; index >= 0; index--) {
    if (/:\s*$/.test(lines[index])) return lines[index]
    if (!LIST_ITEM.test(lines[index]) && lines[index].trim()) return ''
  }
  return ''
}

function sentenceFrames(text: string) {
  const frames: { start: number; end: number }[] = []
  let start = 0
  for (const sentence of sentencesOf(text)) {
    frames.push({ start, end: start + sentence.length })
    start += sentence.length
  }
  return frames
}

/** Counts, sums of money and shares are each compared only with their own kind; dates, years, ranges and phones are not counts. */
function kindOf(figure: string): 'count' | 'money' | 'share' | null {
  if (/[a-z]{3}/i.test(figure.replace(/\b(?:thousand|million|billion|percent|per cent|USD|EUR|GBP|KES|Ksh)\b/gi, ''))) return null
  if (/\d\s?(?:-|–|—|to)\s?\d/.test(figure) || /\d(?:st|nd|rd|th)\b/.test(figure) || /\d[ .-]\d{2,}[ .-]\d/.test(figure)) return null
  if (/[$£€¥₹]|USD|EUR|GBP|KES|Ksh/.test(figure)) return 'money'
  if (/%|percent|per cent/i.test(figure)) return 'share'
  return /^(?:19|20)\d{2}$/.test(figure.trim()) ? null : 'count'
}

const SCALES: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, billion: 1e9, bn: 1e9 }

function valueOf(figure: string): number | null {
  const match = /(\d[\d,]*(?:\.\d+)?)\s*(thousand|million|billion|bn|k|m)?\b/i.exec(figure)
  if (!match) return null
  const value = Number(match[1].replace(/,/g, '')) * (match[2] ? SCALES[match[2].toLowerCase()] : 1)
  return Number.isFinite(value) ? value : null
}

/** The noun a figure counts ("212 local families" → family; "85% of participants" → participant), within its first words. */
type Thing = { key: string; lemma: string; words: string; said?: string }

function thingOf(tokens: Token[]): Thing | null {
  for (let index = 0; index < Math.min(tokens.length, 5); index++) {
    const token = tokens[index]
    if (isNoun(token)) {
      // The head of a compound is its last noun: "132 volunteer tutors" are tutors.
      let head = index
      while (head + 1 < tokens.length && isNoun(tokens[head + 1]) && !MEASURES.has(tokens[head].lemma)) head++
      // "16 new volunteer coaches" are some of the 58: a part is never compared with the whole.
      const part = tokens.slice(0, index).some((word) => PART.has(word.lemma.toLowerCase())) ? '+part' : ''
      const lemma = unitOf(tokens[head].lemma)
      if (!MEASURES.has(lemma)) return { key: classOf(lemma) + part, lemma, words: untag(tokens.slice(0, head + 1)) }
      const counted = tokens[head + 1]?.lemma === 'of' ? measured(tokens[head + 2]) : null
      // What is measured is said of it: "118,000 pounds of produce" are the "Produce distributed: 108,000 lbs".
      if (counted) return { key: lemma, lemma: counted, words: untag(tokens.slice(0, head + 3)), said: counted }
      return SPANS.has(lemma) ? null : { key: lemma, lemma, words: untag(tokens.slice(0, head + 1)) }
    }
    const passes = token.pos === 'ADJ' || token.pos === 'DET' || (token.pos === 'ADP' && token.lemma === 'of')
    if (!passes) return null
  }
  return null
}

const classOf = (lemma: string) => (PEOPLE.has(lemma) ? 'people' : HOUSEHOLDS.has(lemma) ? 'household' : lemma)
const isNoun = (token: Token) => token.pos === 'NOUN' || token.pos === 'PROPN'
const unitOf = (lemma: string) => UNITS[lemma.toLowerCase()] ?? lemma.toLowerCase()

/** "Homes furnished: 614", "a waiting list of 160": the thing named before the figure, when none follows it. */
function thingBefore(lead: string): Thing | null {
  // "Average items per household: 38" counts items.
  const named = /([\p{L}][\p{L}' -]{0,40}?)\s*(?::|\bof(?: the)?)\s*$/u.exec(lead)?.[1]?.split(/\bper\b/)[0]
  const nouns = named ? tag(named).filter(isNoun) : []
  const head = nouns.at(-1)
  if (!head || MEASURES.has(unitOf(head.lemma))) return null
  const lemma = unitOf(head.lemma)
  return { key: classOf(lemma), lemma, words: '' }
}

function measured(token: Token | undefined): string | null {
  return token && ['NOUN', 'PROPN', 'VERB'].includes(token.pos) ? token.lemma : null
}

function frameOf(sentence: string, clause: string, figure: string): Frame {
  const yearsOf = (text: string) => [...text.replace(figure, '').matchAll(YEAR)].map(([year]) => year).join('+')
  const said = PERIOD.exec(clause)?.slice(1).find(Boolean)?.toLowerCase() ?? ''
  return {
    years: yearsOf(clause) || yearsOf(LEADING_TIME.exec(sentence)?.[0] ?? ''),
    period: PERIODS[said] ?? said,
    target: TARGET.test(clause) || TARGET.test(/^[^:(]*[:(]/.exec(sentence)?.[0] ?? ''),
  }
}

/** The same value, or within the rounding of a figure said to be rounded: "about 12,000" is 12,150, not 12,600. */
function agree(a: Figure, b: Figure): boolean {
  const slack = Math.max(a.rounded ? roundedTo(a.value) / 2 : 0, b.rounded ? roundedTo(b.value) / 2 : 0)
  return Math.abs(a.value - b.value) <= slack
}

/** The place of a figure's last digit that is not zero: 122,000 is rounded to the thousand. */
function roundedTo(value: number): number {
  let place = 1
  while (value >= place * 10 && value % (place * 10) === 0) place *= 10
  return place
}

/** A frame unsaid fits any, two said must agree ("in 2022" is not "in 2023"), and a target is never compared with what was done. */
function comparable(a: Figure, b: Figure): boolean {
  const fits = (x: string, y: string) => !x || !y || x === y
  const shared = [...a.context].filter((word) => b.context.has(word)).length
  return (
    a.key === b.key &&
    // A slip changes a digit or drops one, no more: $11,500 of a budget is no misstated $1.02 million of wages.
    Math.max(a.value, b.value) <= SLIP * Math.min(a.value, b.value) &&
    // A sum of money names no thing after it ("$9,600 to run the trailer"): what is said around it must say more.
    shared >= (a.key.endsWith(':') ? 2 : 1) &&
    a.frame.target === b.frame.target &&
    fits(a.frame.years, b.frame.years) &&
    fits(a.frame.period, b.frame.period)
  )
}
