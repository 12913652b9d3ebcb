import { closeness, EVIDENCE, topicsOf } from '~/server/funders/topics.server'
import { fits, sentences, type Limit } from '~/shared/variant-limits'

/**
 * The narrative's own sentences that speak to the question, kept in its order within the limit. Nothing
 * is added: a question it says nothing to is answered with its opening, and the alignment shows the gap.
 */
export function answerQuestion(narrativeText: string, question: string, limit: Limit): string | null {
  const asked = topicsOf(question)
  const all = [...sentences(narrativeText)].map((text, index) => ({
    text: text.trim(),
    index,
    score: closeness(asked, topicsWithFigures(text)),
  }))
  const written = all.filter((sentence) => sentence.text)
  const relevant = written
    .filter((sentence) => sentence.score > 0)
    .sort((a, b) => b.score - a.score || Number(/\d/.test(b.text)) - Number(/\d/.test(a.text)) || a.index - b.index)
  const chosen: typeof written = []
  for (const sentence of relevant.length ? relevant : written) {
    const next = [...chosen, sentence].sort((a, b) => a.index - b.index)
    if (fits(next.map((kept) => kept.text).join(' '), limit)) chosen.splice(0, chosen.length, ...next)
    else if (!relevant.length) break
  }
  return chosen.length ? chosen.map((kept) => kept.text).join(' ') : null
}

function topicsWithFigures(text: string) {
  const topics = topicsOf(text)
  if (/\d/.test(text)) topics.add(EVIDENCE)
  return topics
}
