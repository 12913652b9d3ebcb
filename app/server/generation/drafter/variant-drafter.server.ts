import type { NarrativeInput } from '~/shared/narrative-schema'
import { fits, type Limit, type VariantFormat } from '~/shared/variant-limits'
import { cutAtSpace, MAX_ITEM_CHARS } from '~/server/generation/drafter/reading.server'
import { shortenRuns } from '~/server/generation/drafter/tagger.server'

// The offline drafter's variants (docs/decisions/018): the user's own sentences, chosen by
// what matters most for the format and added while they fit. Nothing is stated that the inputs do not
// say, and nothing is cut: a sentence fits whole or is left out.

type Inputs = Required<NarrativeInput>
type Part = 'opening' | 'reach' | 'result' | 'program' | 'ask'

/** What each format says first: a part's sentences are tried in order, then the next part's. */
const PRIORITIES: Record<VariantFormat, Part[]> = {
  pitch: ['opening', 'result', 'program'],
  social: ['opening', 'result', 'program'],
  loi: ['opening', 'reach', 'program', 'result', 'ask'],
  custom: ['opening', 'result', 'program', 'reach', 'ask'],
}
/** The order a reader meets them in. */
const READING_ORDER: Part[] = ['opening', 'reach', 'program', 'result', 'ask']

/** A variant within `limit`, or null when not even one whole sentence fits. */
export function draftVariant(input: Inputs, format: VariantFormat, limit: Limit): string | null {
  const sentences = sentencesByPart(input)
  const chosen = new Map<Part, string[]>()
  const text = () =>
    READING_ORDER.flatMap((part) => chosen.get(part) ?? [])
      .join(' ')
      .trim()
  for (const part of PRIORITIES[format]) {
    for (const sentence of sentences[part]) {
      const kept = chosen.get(part) ?? []
      chosen.set(part, [...kept, sentence])
      if (!fits(text(), limit)) chosen.set(part, kept)
    }
  }
  return text() || null
}

function sentencesByPart(input: Inputs): Record<Part, string[]> {
  const company = input.company.trim()
  return {
    opening: splitSentences(input.missionStatement).map((sentence, index) => (index === 0 ? introduce(company, sentence) : sentence)),
    reach: [reachSentence(input)].filter((sentence): sentence is string => Boolean(sentence)),
    program: splitSentences(input.keyPrograms),
    result: splitSentences(input.impactMetrics),
    ask: [askSentence(input)],
  }
}

/** The mission's first sentence, said of the organisation by name. */
function introduce(company: string, sentence: string): string {
  const toClause = /^to\s+(.*)$/i.exec(sentence)
  if (toClause) return `${company} exists to ${toClause[1]}`
  if (/^(we|our)\b/i.test(sentence) || sentence.toLowerCase().includes(company.toLowerCase())) return sentence
  return `${company}: ${lowerFirst(sentence)}`
}

function reachSentence({ targetAudience, geographicFocus }: Inputs): string | null {
  const audience = firstItem(targetAudience)
  const place = firstItem(geographicFocus)
  if (audience && place) return `We serve ${lowerFirst(stripEnd(audience))} in ${stripEnd(place)}.`
  if (audience) return `We serve ${lowerFirst(stripEnd(audience))}.`
  if (place) return `We work in ${stripEnd(place)}.`
  return null
}

function askSentence({ contactName1, contactTitle1, contactEmail1 }: Inputs): string {
  const who = contactTitle1 ? `${contactName1}, ${contactTitle1},` : contactName1
  return `To discuss support, please contact ${who} at ${contactEmail1}.`
}

/** The sentences a part offers: the first ones of a field are what a short variant can use. */
const MAX_SENTENCES = 12

// List items (lines, bullets, numbered points, semicolons) and then Unicode's sentences within them,
// each ending in punctuation and starting with a capital, and each bounded like the drafter's items.
const LIST_MARKER = /^\s*(?:[-*•▪◦‣]|\d+[.)]|\(?[a-z]\))\s+/i
let segmenter: Intl.Segmenter | undefined

function splitSentences(text: string): string[] {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' })
  const words = segmenter
  return text
    .split(/\n+|;\s*/)
    .map((item) => item.replace(LIST_MARKER, '').trim())
    .filter(Boolean)
    .flatMap((item) => [...words.segment(item)].map(({ segment }) => segment.trim()).filter(Boolean))
    .slice(0, MAX_SENTENCES)
    .map((sentence) => cutAtSpace(shortenRuns(sentence), MAX_ITEM_CHARS))
    .map((sentence) => upperFirst(/[.!?]["')”’]*$/.test(sentence) ? sentence : `${stripEnd(sentence)}.`))
}

function firstItem(text: string): string {
  return (
    text
      .split(/\n+|;\s*/)
      .map((item) => item.replace(LIST_MARKER, '').trim())
      .find(Boolean) ?? ''
  )
}

function stripEnd(text: string) {
  return text.trim().replace(/[\s.,;:!?]+$/, '')
}

function upperFirst(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** Lower-cases a leading ordinary word, never a name or an acronym ("Low-income…", not "SNAP…"). */
function lowerFirst(text: string) {
  return /^\p{Lu}\p{Ll}/u.test(text) && !/^\S+\s+\p{Lu}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text
}
