import { closeness, EVIDENCE, topicsOf } from '~/server/funders/topics.server'
import { measure, sentences, type Limit } from '~/shared/variant-limits'

/** A 400-word narrative has about 25 sentences; a text of 20,000 characters of short ones, a thousand. */
const SENTENCES_READ = 400

/**
 * The narrative's own sentences that speak to the question, kept in its order within the limit. Nothing
 * is added: a question it says nothing to is answered with its opening, and the alignment shows the gap.
 */
export function answerQuestion(narrativeText: string, question: string, limit: Limit): string | null {
  const asked = topicsOf(question)
  const written = [...sentences(narrativeText)]
    .slice(0, SENTENCES_READ)
    .map((text, index) => ({ text: text.trim(), index, score: closeness(asked, topicsWithFigures(text)) }))
    .filter((sentence) => sentence.text)
  const relevant = written
    .filter((sentence) => sentence.score > 0)
    .sort((a, b) => b.score - a.score || Number(/\d/.test(b.text)) - Number(/\d/.test(a.text)) || a.index - b.index)
  // Sentences joined by a space measure the sum of their own measures and the spaces between.
  const space = limit.unit === 'characters' ? 1 : 0
  const chosen: typeof written = []
  let used = -space
  for (const sentence of relevant.length ? relevant : written) {
    const size = measure(sentence.text, limit.unit) + space
    if (used + size <= limit.max) {
      chosen.push(sentence)
      used += size
    } else if (!relevant.length) break
  }
  return chosen.length
    ? chosen
        .sort((a, b) => a.index - b.index)
        .map((kept) => kept.text)
        .join(' ')
    : null
}

function topicsWithFigures(text: string) {
  const topics = topicsOf(text)
  if (/\d/.test(text)) topics.add(EVIDENCE)
  return topics
}
