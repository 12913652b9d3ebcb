import { keyWords, splitItems } from '~/shared/items'
import type { ClaimInputs } from '~/server/narratives/claims.server'

// What a text leaves out of its inputs, whoever wrote it (docs/decisions/033): plain code, linear in the text and inputs.

export type LeftOutKind = 'programme' | 'result' | 'figure' | 'story'
export type LeftOut = { kind: LeftOutKind; text: string }

/** Items read per field: more than a draft can hold, few enough to read on every page view. */
const MAX_ITEMS = 30
const MAX_LISTED = 20
/** An item is in the text when its figures are, and at least this share of its words. */
const WORD_SHARE = 0.5
const NUMBER = /\d[\d,]*(?:\.\d+)?/g

export function leftOut(text: string, inputs: ClaimInputs): LeftOut[] {
  const words = new Set(keyWords(text))
  const numbers = new Set(numbersIn(text))
  const missing: LeftOut[] = []
  const carries = (item: string) => {
    const itemWords = keyWords(item)
    const found = itemWords.filter((word) => words.has(word)).length
    return numbersIn(item).every((number) => numbers.has(number)) && (itemWords.length === 0 || found / itemWords.length >= WORD_SHARE)
  }
  for (const [kind, field] of [
    ['programme', inputs.keyPrograms],
    ['result', inputs.impactMetrics],
  ] as const) {
    for (const item of splitItems(field ?? undefined, MAX_ITEMS)) if (!carries(item)) missing.push({ kind, text: item })
  }
  const story = inputs.successStory?.trim()
  if (story && !carries(splitItems(story, 1)[0] ?? story)) missing.push({ kind: 'story', text: story })
  // A figure of the mission, the people or the places, not already named with its item.
  const listed = new Set(missing.flatMap((item) => numbersIn(item.text)))
  for (const field of [inputs.missionStatement, inputs.targetAudience, inputs.geographicFocus]) {
    for (const item of splitItems(field ?? undefined, MAX_ITEMS)) {
      const unsaid = numbersIn(item).filter((number) => !numbers.has(number) && !listed.has(number))
      if (unsaid.length === 0) continue
      for (const number of unsaid) listed.add(number)
      missing.push({ kind: 'figure', text: item })
    }
  }
  return missing.slice(0, MAX_LISTED)
}

/** "2,800" and "2800" are one figure; "2.8 million" is found by its "2.8". */
function numbersIn(text: string): string[] {
  return (text.match(NUMBER) ?? []).map((number) => number.replace(/,/g, '').replace(/\.0+$/, ''))
}
