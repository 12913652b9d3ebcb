import type { NarrativeInput } from '~/shared/narrative-schema'
import { EVIDENCE, topicsOf } from '~/server/funders/topics.server'
import { FUNDER_LIMITS } from '~/shared/funder-schema'
import { answersPriority, inputBacking, nameRemover } from '~/server/narratives/alignment.server'
import type { FunderBrief } from '~/server/generation/engines/contract.server'
import type { Item, Reading } from '~/server/generation/drafter/contract.server'

// The same plain code that reads a narrative's alignment decides what the inputs can answer (docs/decisions/030
// and 033): no sentence of the voice's own speaks to a priority the inputs do not back, so a gap stays a gap.

export type FunderPlan = {
  /** The funder as a sentence names it: "the Lane County Community Foundation", "Acme Outfitters". */
  funder: string
  /** The place of the first backed priority an item answers (0 the most important), if any. */
  rankOf: Map<Item, number>
  /** The item that says which priority it answers, and the priority as told. */
  linked: Map<Item, string>
  /** Whether a sentence speaks to a priority the inputs do not back. */
  strays: (sentence: string) => boolean
}

export function planFor(input: NarrativeInput, reading: Reading, brief: FunderBrief, tell: (priority: string) => string): FunderPlan {
  const backingOf = inputBacking(input, brief.funder)
  const priorities = brief.priorities
    .slice(0, FUNDER_LIMITS.priorities)
    .map((priority) => ({ priority, answers: answersPriority(priority), backed: backingOf(priority).length > 0 }))
  const withoutFunder = nameRemover(brief.funder)
  const rankOf = new Map<Item, number>()
  const linked = new Map<Item, string>()
  const told = new Set<number>()
  for (const item of [...reading.programmes, ...reading.results]) {
    const topics = itemTopics(item)
    const place = priorities.findIndex(({ answers, backed }) => backed && answers(topics))
    if (place < 0) continue
    rankOf.set(item, place)
    // The voices say so after a result: the first result that answers each priority.
    if (reading.results.includes(item) && !told.has(place)) {
      told.add(place)
      linked.set(item, tell(priorities[place].priority))
    }
  }
  return {
    funder: asNamed(brief.funder),
    rankOf,
    linked,
    strays: (sentence) => {
      const topics = topicsOf(withoutFunder(sentence))
      return priorities.some(({ answers, backed }) => !backed && answers(topics))
    },
  }
}

/** A result stating a figure speaks to a call's "measurable outcomes", as the alignment reads it. */
function itemTopics(item: Item): Set<string> {
  const topics = topicsOf(item.text)
  if (item.figure) topics.add(EVIDENCE)
  return topics
}

const INSTITUTION =
  /\b(?:foundation|fund|trust|council|department|ministry|agency|authority|commission|programme|program|office|institute|society|association|endowment|initiative|board|lottery)\b/i

/** "Lane County Community Foundation" → "the Lane County Community Foundation"; a company's name as it is. */
export function asNamed(funder: string): string {
  const name = funder.trim()
  if (/^the\s/i.test(name)) return `the ${name.slice(4)}`
  return INSTITUTION.test(name) ? `the ${name}` : name
}
