import type { Answer } from '~/server/generation/engines/contract.server'
import { closeness, EVIDENCE, speaksTo, topicsOf } from '~/server/language/topics.server'
import { measure, sentences, type Limit } from '~/shared/variant-limits'

/** A 400-word narrative has about 25 sentences; a text of 20,000 characters of short ones, a thousand. */
const SENTENCES_READ = 400

/** The narrative's sentences on the question, closest first, within the limit; none when it says nothing: padding would look answered. */
export function answerQuestion(narrativeText: string, question: string, limit: Limit): Answer {
  const asked = topicsOf(question)
  const relevant = [...sentences(narrativeText)]
    .slice(0, SENTENCES_READ)
    .map((text, index) => {
      const topics = topicsWithFigures(text)
      return { text: text.trim(), index, speaks: speaksTo(asked, topics), score: closeness(asked, topics) }
    })
    .filter((sentence) => sentence.text && sentence.speaks)
    .sort((a, b) => b.score - a.score || Number(/\d/.test(b.text)) - Number(/\d/.test(a.text)) || a.index - b.index)
  if (!relevant.length) return { unanswered: true }
  // Sentences joined by a space measure the sum of their own measures and the spaces between.
  const space = limit.unit === 'characters' && !limit.withoutSpaces ? 1 : 0
  const chosen: typeof relevant = []
  let used = -space
  for (const sentence of relevant) {
    const size = measure(sentence.text, limit) + space
    if (used + size > limit.max) continue
    chosen.push(sentence)
    used += size
  }
  if (!chosen.length) return { unfit: true }
  const [opening, ...rest] = chosen
  return { text: [opening, ...rest.sort((a, b) => a.index - b.index)].map((kept) => kept.text).join(' ') }
}

function topicsWithFigures(text: string) {
  const topics = topicsOf(text)
  if (/\d/.test(text)) topics.add(EVIDENCE)
  return topics
}
