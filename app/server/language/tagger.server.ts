import winkNLP, { type ItsFunction } from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
// The tagger the drafter (decision 021), the coach and the call reader share, in process; callers cut its text to a bounded length.

/** A word with its universal part-of-speech tag, its lower-case lemma and whether a space precedes it. */
export type Token = { text: string; pos: string; lemma: string; spaced: boolean }

const nlp = winkNLP(model, ['pos'])
const its = nlp.its
// The model's lemmatiser takes its addons where the typings expect a cache; the call is the documented one.
const lemma = its.lemma as unknown as ItsFunction<string>

/** The tokenizer's e-mail pattern is quadratic in a run's length (docs/decisions/025); no word a narrative quotes is longer. */
export const MAX_RUN_CHARS = 50
const LONG_RUN = new RegExp(`\\S{${MAX_RUN_CHARS + 1},}`, 'g')

export function shortenRuns(text: string): string {
  return text.replace(LONG_RUN, (run) => `${run.slice(0, MAX_RUN_CHARS)}…`)
}

export function tag(text: string): Token[] {
  const tokens = nlp.readDoc(shortenRuns(text)).tokens()
  const texts = tokens.out() as string[]
  const tags = tokens.out(its.pos) as string[]
  const lemmas = tokens.out(lemma) as string[]
  const spaces = tokens.out(its.precedingSpaces) as string[]
  return texts.map((word, index) => ({ text: word, pos: tags[index], lemma: lemmas[index], spaced: spaces[index] !== '' }))
}

/** How the tagger reads one word of a short test sentence ("it costs them"), remembered: long fields ask of the same words often. */
export function probe(sentence: string, index: number): Token | undefined {
  let tokens = probes.get(sentence)
  if (!tokens) {
    if (probes.size >= PROBES_KEPT) probes.clear()
    tokens = tag(sentence)
    probes.set(sentence, tokens)
  }
  return tokens[index]
}

const PROBES_KEPT = 5000
const probes = new Map<string, Token[]>()

export function untag(tokens: Token[]): string {
  return tokens.map((token, index) => (index > 0 && token.spaced ? ` ${token.text}` : token.text)).join('')
}

export function hasVerb(text: string): boolean {
  return tag(text).some((token) => token.pos === 'VERB' || token.pos === 'AUX')
}
