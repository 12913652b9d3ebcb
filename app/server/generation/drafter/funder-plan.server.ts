import type { NarrativeInput } from '~/shared/narrative-schema'
import { EVIDENCE, topicsOf } from '~/server/funders/topics.server'
import { FUNDER_LIMITS } from '~/shared/funder-schema'
import { answersPriority, inputBacking, nameRemover } from '~/server/narratives/alignment.server'
import type { FunderBrief } from '~/server/generation/engines/contract.server'
import { PADDING_RANK } from '~/server/generation/drafter/voices.server'
import { ASK_RANK, type Item, type Paragraph, type Reading } from '~/server/generation/drafter/contract.server'

// The offline drafter's plan for a funder's call (docs/decisions/030): the plain code that reads a narrative's
// alignment decides what the inputs can answer, and no sentence of the voice's own may speak to a priority
// the inputs do not back: a gap stays a gap.

const PRIORITIES_MAX = FUNDER_LIMITS.priorities

export type FunderPlan = {
  /** As a sentence names it ("the Lane County Community Foundation"). */
  ask: { funder: string; amount: string | null }
  /** The funder's word limit when it is shorter than a narrative's own. */
  maxWords: number | null
  order(reading: Reading): Reading
  weigh(paragraphs: Paragraph[]): Paragraph[]
}

export function planFor(input: NarrativeInput, brief: FunderBrief, narrativeWords: number): FunderPlan {
  const backingOf = inputBacking(input, brief.funder)
  const priorities = brief.priorities.map((priority) => ({ answers: answersPriority(priority), backed: backingOf(priority).length > 0 }))
  const withoutFunder = nameRemover(brief.funder)
  const firstAnswered = (topics: Set<string>) => {
    const index = priorities.findIndex(({ answers, backed }) => backed && answers(topics))
    return index < 0 ? null : index
  }
  const strays = (topics: Set<string>) => priorities.some(({ answers, backed }) => !backed && answers(topics))
  const byPriority = (list: Item[]) =>
    list
      .map((item, index) => ({ item, index, place: firstAnswered(itemTopics(item)) ?? priorities.length }))
      .sort((a, b) => a.place - b.place || a.index - b.index)
      .map(({ item }) => item)
  return {
    ask: { funder: asNamed(brief.funder), amount: brief.amount?.trim() || null },
    maxWords: brief.maxWords && brief.maxWords < narrativeWords ? brief.maxWords : null,
    order: (reading) => ({
      ...reading,
      audience: byPriority(reading.audience),
      places: byPriority(reading.places),
      programmes: byPriority(reading.programmes),
      results: byPriority(reading.results),
    }),
    weigh: (paragraphs) =>
      paragraphs.map((paragraph) =>
        paragraph.flatMap((candidate) => {
          if (candidate.rank === ASK_RANK) return [candidate]
          const topics = topicsOf(withoutFunder(candidate.text))
          if (strays(topics)) return []
          const answered = firstAnswered(topics)
          // Between 1 and 2 by the priority answered: under a limit, the first priority's facts are kept first.
          return candidate.rank >= 1 && candidate.rank < PADDING_RANK && answered !== null
            ? [{ ...candidate, rank: 1 + answered / PRIORITIES_MAX }]
            : [candidate]
        }),
      ),
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
