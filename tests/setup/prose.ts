import winkNLP, { type ItemSentence } from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import type { NarrativeInput } from '~/shared/narrative-schema'

// How a draft reads, measured (docs/decisions/021): used by the drafter's tests and by scripts/drafter-figures.ts,
// which writes the figures of docs/drafter.md.

const nlp = winkNLP(model, ['sbd', 'pos'])
const its = nlp.its

/** The sentences of `text`, as wink-nlp splits them. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = []
  nlp
    .readDoc(text)
    .sentences()
    .each((sentence: ItemSentence) => {
      sentences.push(sentence.out())
    })
  return sentences
}

/** The sentences in which the part-of-speech tagger finds no verb (nor auxiliary). */
export function verblessSentences(text: string): string[] {
  const found: string[] = []
  nlp
    .readDoc(text)
    .sentences()
    .each((sentence: ItemSentence) => {
      const tags = sentence.tokens().out(its.pos) as string[]
      if (!tags.some((tag) => tag === 'VERB' || tag === 'AUX')) found.push(sentence.out())
    })
  return found
}

function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .match(/[\p{L}\p{N}$%'’.,-]+/gu)
      ?.map((word) => word.replace(/[.,]+$/, ''))
      .filter(Boolean) ?? []
  )
}

/** The distinct runs of `n` consecutive words (case and closing punctuation ignored). */
export function wordRuns(text: string, n = 6): Set<string> {
  const list = words(text)
  const runs = new Set<string>()
  for (let index = 0; index + n <= list.length; index++) runs.add(list.slice(index, index + n).join(' '))
  return runs
}

/** The larger of the two shares: how much of either text's 6-word runs the other text also has. */
export function sharedRunShare(a: string, b: string, n = 6): number {
  const [runsA, runsB] = [wordRuns(a, n), wordRuns(b, n)]
  let shared = 0
  for (const run of runsA) if (runsB.has(run)) shared++
  return shared / Math.max(1, Math.min(runsA.size, runsB.size))
}

/** The share of the draft's words that stand in a run of at least `n` words copied from the inputs. */
export function copiedShare(draft: string, input: NarrativeInput, n = 5): number {
  const source = wordRuns(inputText(input), n)
  const list = words(draft)
  const copied = new Array<boolean>(list.length).fill(false)
  for (let index = 0; index + n <= list.length; index++) {
    if (source.has(list.slice(index, index + n).join(' '))) copied.fill(true, index, index + n)
  }
  return copied.filter(Boolean).length / Math.max(1, list.length)
}

export function inputText(input: NarrativeInput): string {
  const { selectedTone: _tone, ...fields } = input
  return Object.values(fields).filter(Boolean).join('\n')
}

/** List markers left in the prose: bullets anywhere, or a dash or number opening a line or sentence. */
export function listMarkers(text: string): string[] {
  const found = text.match(/[•‣◦▪*#]|(?:^|\n|[.!?:;]\s+)(?:[-–—+]|\(?\d{1,2}[.)]|\([a-z]\))\s/g) ?? []
  return found.map((marker) => marker.trim())
}

/**
 * Capitalised words right after a colon that are no name of the inputs: a sentence spliced onto
 * another ("…mission: The lab studies…"). A name is a capitalised word the inputs use mid-sentence,
 * or a word of the organisation's or a contact's name.
 */
export function splicesAfterColon(text: string, input: NarrativeInput): string[] {
  const names = new Set<string>()
  for (const name of [input.company, input.contactName1, input.contactName2]) {
    for (const word of name?.match(/\p{Lu}[\p{L}'’-]*/gu) ?? []) names.add(word)
  }
  for (const match of inputText(input).matchAll(/(?<=[\p{L}\p{N},;)] )\p{Lu}[\p{L}'’-]*/gu)) names.add(match[0])
  const spliced: string[] = []
  for (const match of text.matchAll(/:\s+(\p{Lu}[\p{L}'’-]*)/gu)) if (!names.has(match[1])) spliced.push(match[0])
  return spliced
}

/**
 * The sentences two drafts share word for word (case and spacing aside): the stock text two organisations
 * would send funders alike. Counted as the share of the shorter draft's sentences.
 */
export function sharedSentences(a: string, b: string): { shared: string[]; share: number } {
  const key = (sentence: string) => sentence.trim().replace(/\s+/g, ' ').toLowerCase()
  const ofB = new Set(sentencesOf(b).map(key))
  const ofA = sentencesOf(a)
  const shared = ofA.filter((sentence) => ofB.has(key(sentence)))
  return { shared, share: shared.length / Math.max(1, Math.min(ofA.length, ofB.size)) }
}

/** The longest run of sentences in a row, within a paragraph, that open on a figure. */
export function numeralRun(text: string): number {
  let longest = 0
  for (const paragraph of text.split(/\n\s*\n/)) {
    let run = 0
    for (const sentence of sentencesOf(paragraph)) {
      run = /^[\d$£€]/.test(sentence.trim()) ? run + 1 : 0
      longest = Math.max(longest, run)
    }
  }
  return longest
}

/** Sentences about the document itself, or about people and places the inputs never gave: padding a reviewer cuts. */
export const PADDING =
  /\b(?:what follows|this proposal|the account that follows|each part is drawn|if you live there|you may already know|we refuse to look away|compassion made practical|every gift, every hour|the figures are given here)\b/i
