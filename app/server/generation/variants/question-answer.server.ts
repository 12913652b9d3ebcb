import { closeness, EVIDENCE, topicsOf } from '~/server/funders/topics.server'
import { fits, sentences, type Limit } from '~/shared/variant-limits'

/**
 * The offline answer to one of a call's questions (docs/decisions/030): the narrative's own sentences
 * that speak to the question, most to the point first (and, as close, those with figures), kept in the narrative's order within the
 * question's limit. Nothing is added: a question the narrative says nothing to is answered with its
 * opening, and the alignment shows the gap. Null when not one sentence fits.
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

/** A sentence's topics; one that states a figure speaks to a question about results. */
function topicsWithFigures(text: string) {
  const topics = topicsOf(text)
  if (/\d/.test(text)) topics.add(EVIDENCE)
  return topics
}
