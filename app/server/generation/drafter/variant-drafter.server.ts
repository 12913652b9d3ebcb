import { fits, sentencesOf, type VariantFormat } from '~/shared/variant-limits'
import type { VariantTask } from '~/server/generation/engines/contract.server'
import { cutAtSpace } from '~/shared/text'
import { MAX_ITEM_CHARS } from '~/server/generation/drafter/reading.server'
import { shortenRuns } from '~/server/language/tagger.server'

// A variant is the narrative's own sentences (docs/decisions/018): each fits whole or is left out; only a letter may add its ask.

type Part = 'opening' | 'result' | 'other' | 'ask' | 'contact'

/** What each format says first: a part's sentences are tried in order, then the next part's. */
const PRIORITIES: Record<VariantFormat, Part[]> = {
  pitch: ['opening', 'result', 'other'],
  social: ['opening', 'result', 'other'],
  loi: ['contact', 'ask', 'opening', 'result', 'other'],
  custom: ['opening', 'result', 'other', 'ask', 'contact'],
}

/** The sentences a variant reads of the narrative: more than any variant's limit holds. */
const MAX_SENTENCES = 60

type Sentence = { text: string; part: Part; at: number }

/** A variant within `limit`, or null when not even one whole sentence fits. */
export function draftVariant({ input, narrativeText, format, limit }: VariantTask): string | null {
  const sentences = readSentences(narrativeText, input)
  if (format === 'loi') sentences.push(...missingLetterParts(sentences, input))
  const chosen: Sentence[] = []
  const text = () =>
    [...chosen]
      .sort((a, b) => a.at - b.at)
      .map((sentence) => sentence.text)
      .join(' ')
  for (const part of PRIORITIES[format]) {
    for (const sentence of sentences) {
      if (sentence.part !== part) continue
      chosen.push(sentence)
      if (!fits(text(), limit)) chosen.pop()
    }
  }
  return text() || null
}

function readSentences(narrative: string, input: VariantTask['input']): Sentence[] {
  const paragraphs = narrative.split(/\n\s*\n/)
  const sentences: Sentence[] = []
  // Past its first sixty sentences a text is not read at all: thousands of paragraphs cost no more than a few.
  for (const [index, paragraph] of paragraphs.entries()) {
    if (sentences.length >= MAX_SENTENCES) break
    const last = index === paragraphs.length - 1
    for (const [position, raw] of sentencesOf(paragraph).entries()) {
      if (sentences.length >= MAX_SENTENCES) break
      const text = cutAtSpace(shortenRuns(raw.trim().replace(/\s+/g, ' ')), MAX_ITEM_CHARS)
      if (text) sentences.push({ text, part: partOf(text, { first: index === 0 && position === 0, last, input }), at: sentences.length })
    }
  }
  return sentences
}

const ASK = /\b(?:seek(?:s|ing)?|sought|asks?|asking|funding|support|invest(?:ment|ing)?|partner(?:s|ship)?|donat\w*|stand with)\b/i

function partOf(text: string, { first, last, input }: { first: boolean; last: boolean; input: VariantTask['input'] }): Part {
  const contact = [input.contactName1, input.contactEmail1].filter((detail) => detail.trim())
  if (contact.some((detail) => text.includes(detail.trim()))) return 'contact'
  if (last && ASK.test(text)) return 'ask'
  if (first) return 'opening'
  return /\d/.test(text) ? 'result' : 'other'
}

/** A letter of inquiry asks, and says whom to ask: said plainly from the contact details when the text does not. */
function missingLetterParts(sentences: Sentence[], input: VariantTask['input']): Sentence[] {
  const added: Sentence[] = []
  const company = input.company.trim()
  if (!sentences.some((sentence) => sentence.part === 'ask'))
    added.push({ text: `${company} would welcome a conversation about support for this work.`, part: 'ask', at: MAX_SENTENCES })
  if (!sentences.some((sentence) => sentence.part === 'contact')) {
    const who = input.contactTitle1 ? `${input.contactName1}, ${input.contactTitle1},` : input.contactName1
    added.push({ text: `To discuss it, please contact ${who} at ${input.contactEmail1}.`, part: 'contact', at: MAX_SENTENCES + 1 })
  }
  return added
}
