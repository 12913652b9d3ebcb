import { tag, untag, type Token } from '~/server/language/tagger.server'
import { sentencesOf } from '~/shared/variant-limits'
import type { Claim, ClaimInputs } from '~/server/narratives/claims.server'
import type { Conflict, Place } from '~/shared/application'

// The same thing counted differently across an application's texts: "212 families" here, "210" there (docs/decisions/054).

/** `frame`: the years its sentence names, its period ("week") and whether it is a target, which a comparison must respect. */
type Figure = { key: string; value: number; phrase: string; frame: Frame }
type Frame = { years: string; period: string; target: boolean }

const INPUT_FIELDS = ['missionStatement', 'keyPrograms', 'impactMetrics', 'targetAudience', 'geographicFocus', 'successStory'] as const
/** An application's first figures, each tagged in some 0.06 ms (a narrative has about 20): a crafted one costs no more. */
const FIGURES_READ = 300
const INPUT_FIGURES_READ = 100
const WINDOW = 80
/** Words that measure rather than name: "3 years" is a span, and "4,500 pounds of produce" counts the produce. */
const MEASURES = new Set(
  'year month week day hour minute decade time mile kilometre kilometer km acre hectare metre meter foot pound lb kilogram kg ton tonne litre liter gallon'.split(
    ' ',
  ),
)
const APPROXIMATE =
  /\b(?:over|more than|nearly|almost|about|around|approximately|approx\.?|roughly|some|up to|at least|at most|fewer than|less than|under|above|below|close to|upwards of)\s*$/i
const TARGET =
  /\b(?:will|would|expect|expects|expected|aim|aims|plan|plans|goal|target|targets|hope|intend|by the end|projected|forecast)\b/i
const PERIOD = /\b(?:a|per|each|every)\s+(day|week|month|year)\b|\b(daily|weekly|monthly|annually|yearly|last year|this year)\b/i
const PERIODS: Record<string, string> = { daily: 'day', weekly: 'week', monthly: 'month', annually: 'year', yearly: 'year' }
const YEAR = /(?<![\d,.])(?:19|20)\d{2}(?!\d|,\d)/g

/** Each text's figures that another text counts differently; never against itself, which may count two years. */
export function findConflicts(
  texts: { question: Place; text: string; claims: readonly Claim[] }[],
  inputs: ClaimInputs,
): Map<Place, Conflict[]> {
  let budget = FIGURES_READ
  const figures = texts.map(({ question, text, claims }) => {
    const read = claims.slice(0, budget)
    budget -= read.length
    return { question, figures: figuresOf(text, read) }
  })
  const stated = inputFigures(inputs)
  const conflicts = new Map<Place, Conflict[]>()
  for (const { question, figures: own } of figures) {
    const found: Conflict[] = []
    for (const figure of uniqueByValue(own)) {
      const elsewhere = figures.flatMap((other) => {
        if (other.question === question) return []
        const same = other.figures.filter((candidate) => comparable(candidate, figure))
        if (!same.length || same.some((candidate) => candidate.value === figure.value)) return []
        return uniqueByValue(same).map((candidate) => ({ question: other.question, figure: candidate.phrase }))
      })
      if (!elsewhere.length) continue
      const inputs = uniqueByValue(stated.filter((candidate) => comparable(candidate, figure))).map((candidate) => candidate.phrase)
      found.push({ figure: figure.phrase, elsewhere, inputs })
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
    const read = numbersIn(text).slice(0, budget)
    budget -= read.length
    figures.push(...figuresOf(text, read))
  }
  return figures
}

function numbersIn(text: string): Claim[] {
  const found: Claim[] = []
  for (const match of text.matchAll(/(?:[$£€]\s?)?\d[\d,.]*(?:\s?%)?/g)) {
    const figure = match[0].replace(/[.,]+$/, '')
    found.push({ text: figure, start: match.index, end: match.index + figure.length, supported: true, fields: [] })
  }
  return found
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
  const frames = sentenceFrames(text)
  const figures: Figure[] = []
  for (const claim of claims) {
    const kind = kindOf(claim.text)
    const value = kind && valueOf(claim.text)
    if (!kind || value === null || APPROXIMATE.test(text.slice(Math.max(0, claim.start - 20), claim.start))) continue
    const window = text.slice(claim.end, claim.end + WINDOW).split(/[.;:!?\n]/)[0]
    const thing = thingOf(tag(window))
    if (!thing) continue
    const frame = frames.find(({ start, end }) => claim.start >= start && claim.start < end)
    const sentence = frame ? text.slice(frame.start, frame.end) : window
    // A period belongs to its clause ("212 families in 2023, and 4,500 pounds each week"), years to the whole sentence.
    const clause = window.split(/,|\band\b|\bwhile\b|\bbut\b/)[0]
    figures.push({
      key: `${kind}:${thing.key}`,
      value,
      phrase: `${claim.text} ${thing.words}`,
      frame: frameOf(sentence, clause, claim.text),
    })
  }
  return figures
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
function thingOf(tokens: Token[]): { key: string; words: string } | null {
  for (let index = 0; index < Math.min(tokens.length, 5); index++) {
    const token = tokens[index]
    if (token.pos === 'NOUN' || token.pos === 'PROPN') {
      if (!MEASURES.has(token.lemma)) return { key: token.lemma, words: untag(tokens.slice(0, index + 1)) }
      // The tagger reads "produce" in "pounds of produce" as a verb: after "of", a word is what is measured.
      const counted = tokens[index + 1]?.lemma === 'of' ? measured(tokens[index + 2]) : null
      return counted ? { key: `${token.lemma}-of-${counted}`, words: untag(tokens.slice(0, index + 3)) } : null
    }
    const passes = token.pos === 'ADJ' || token.pos === 'DET' || (token.pos === 'ADP' && token.lemma === 'of')
    if (!passes) return null
  }
  return null
}

function measured(token: Token | undefined): string | null {
  return token && ['NOUN', 'PROPN', 'VERB'].includes(token.pos) ? token.lemma : null
}

/** The frame of time a figure stands in: the years its sentence names, a period ("each week"), or a target. */
function frameOf(sentence: string, clause: string, figure: string): Frame {
  const years = [...sentence.replace(figure, '').matchAll(YEAR)].map(([year]) => year).join('+')
  const said = PERIOD.exec(clause)?.slice(1).find(Boolean)?.toLowerCase() ?? ''
  return { years, period: PERIODS[said] ?? said, target: TARGET.test(sentence) }
}

/** A frame unsaid fits any, two said must agree ("in 2022" is not "in 2023"), and a target is never compared with what was done. */
function comparable(a: Figure, b: Figure): boolean {
  const fits = (x: string, y: string) => !x || !y || x === y
  return a.key === b.key && a.frame.target === b.frame.target && fits(a.frame.years, b.frame.years) && fits(a.frame.period, b.frame.period)
}
