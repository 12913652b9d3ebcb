import { isEnglishWord } from '~/server/narratives/claims.server'
import { isParticiple, mainVerb } from '~/server/generation/drafter/reading.server'
import { hasVerb, tag, untag } from '~/server/generation/drafter/tagger.server'
import type { Item, Subject, Token } from '~/server/generation/drafter/contract.server'

// Items into sentences (docs/decisions/021): each item becomes a sentence of its own, with a subject and a verb
// where it had none, in the voice's person. One item's words never modify another's.

export function weSubject(): Subject {
  return { we: true, start: 'We', mid: 'we', possessive: 'Our' }
}

/** The organisation by its name or its descriptor ("the food bank"). */
export function theySubject(label: string): Subject {
  const start = label.charAt(0).toUpperCase() + label.slice(1)
  return { we: false, start, mid: nameInside(label), possessive: `${start}’s` }
}

/** The organisation's name inside a sentence: "The Old Mill Theatre" reads "the Old Mill Theatre". */
export function nameInside(name: string): string {
  return /^The\s+\p{Lu}/u.test(name) ? `t${name.slice(1)}` : name
}

/** The item as a sentence about `subject`; a phrase is given the verb that `frame` writes around it. */
export function itemSentence(item: Item, subject: Subject, frame: (phrase: string, item: Item) => string): string {
  const sentence = writeItem(item, subject, frame)
  if (hasVerb(sentence)) return sentence
  // The tagger reads no verb in it ("The alliance drills and repairs boreholes"): say it with one it reads.
  const work = finish(`${subject.possessive} work includes ${lowerFirst(item.text)}`)
  return hasVerb(work) ? work : finish(`Part of the work is ${lowerFirst(item.text)}`)
}

function writeItem(item: Item, subject: Subject, frame: (phrase: string, item: Item) => string): string {
  if (item.shape === 'phrase' && CHANGE.test(item.text))
    return finish(item.text.replace(CHANGE, (change) => ` ${pluralSubject(item.tokens) ? 'were' : 'was'}${change}`))
  switch (item.shape) {
    case 'clause':
      return finish(subject.we ? item.text : untag(intoThirdPerson(item.tokens, subject)))
    case 'participle':
      return finish(withAuxiliary(item.tokens))
    case 'headless':
      return finish(`${subject.start} ${untag(conjugated(item.tokens, subject.we))}`)
    case 'infinitive':
      return finish(`${subject.start} ${subject.we ? 'aim' : 'aims'} ${lowerFirst(item.text)}`)
    case 'phrase':
      return finish(frame(lowerFirst(item.text), item))
  }
}

/** The verb a phrase of programmes is given, by what its head noun names. */
export function programmeVerb(item: Item, we: boolean): string {
  const head = headNoun(item.tokens)
  const lemma = head?.lemma ?? ''
  const verb =
    OFFERED.has(lemma) || /ing$/.test(lemma)
      ? 'offer'
      : RUN.has(lemma)
        ? 'run'
        : PRESENTED.has(lemma)
          ? 'present'
          : STUDIED.has(lemma)
            ? 'carry out'
            : 'provide'
  return we ? verb : thirdPerson(verb)
}

const OFFERED = new Set(
  'coaching training tutoring mentoring counselling counseling advice support class lesson course workshop session therapy care help guidance education instruction service clinic apprenticeship placement residency grant loan scholarship bursary traineeship certification'.split(
    ' ',
  ),
)
const RUN = new Set(
  'market pantry centre center hub kitchen cafe café shop store club group network festival event night project scheme camp library studio line helpline hotline garden farm site fund team school theatre theater programme program archive'.split(
    ' ',
  ),
)
const PRESENTED = new Set('performance exhibition concert production show screening commission tour'.split(' '))
const STUDIED = new Set('research study analysis modelling modeling survey monitoring trial mapping forecasting evaluation'.split(' '))

/** The noun a phrase is about: the last noun before its first preposition, comma or relative clause. */
export function headNoun(tokens: Token[]): Token | undefined {
  let head: Token | undefined
  for (const token of tokens) {
    if (token.pos === 'ADP' || (token.pos === 'PUNCT' && token.text !== '-') || (token.pos === 'PRON' && head)) break
    if (token.pos === 'NOUN' || token.pos === 'PROPN' || (token.pos === 'VERB' && head)) head = token
  }
  return head
}

/** A short name for an item, for lists: "weekend meal packs", "a mobile pantry", "open flood-risk maps". */
export function shortName(item: Item): string | null {
  const tokens = item.tokens
  let from = 0
  // Only what the organisation itself does has a name worth asking for: "We run 14 pantries" → "pantries".
  if (item.shape === 'clause' && tokens[0]?.text.toLowerCase() !== 'we') return null
  if (item.shape === 'clause' || item.shape === 'headless') {
    const verb = item.shape === 'headless' ? 0 : mainVerb(tokens)
    if (verb === -1) return null
    from = verb + 1
    while (tokens[from] && (tokens[from].pos === 'ADV' || tokens[from].pos === 'PART')) from++
  } else if (item.shape !== 'phrase') return null
  const kept: Token[] = []
  for (const token of tokens.slice(from)) {
    const compound = token.pos === 'VERB' && kept.at(-1)?.pos === 'NOUN' && /s$/.test(token.text)
    if (compound) {
      kept.push(token)
      continue
    }
    if (
      token.pos === 'ADP' ||
      token.pos === 'VERB' ||
      token.pos === 'AUX' ||
      token.pos === 'CCONJ' ||
      token.pos === 'SCONJ' ||
      (token.pos === 'PUNCT' && token.text !== '-') ||
      (token.pos === 'PRON' && kept.length > 0)
    )
      break
    kept.push(token)
  }
  while (kept[0]?.pos === 'NUM') kept.shift()
  const nouns = kept.filter((token) => token.pos === 'NOUN' || token.pos === 'PROPN' || token.pos === 'VERB')
  if (nouns.length === 0 || kept.length > 6) return null
  const bare = !['DET', 'PRON'].includes(kept[0].pos) && nouns.at(-1)!.text.toLowerCase() !== nouns.at(-1)!.lemma
  const text = (bare && item.tokens[0]?.pos === 'NUM' ? 'the ' : '') + untag(kept).replace(/^(?:our|their|its)\s+/i, 'the ')
  return lowerFirst(text)
}

// ---- Person and verbs ----

const AUXILIARIES: Record<string, string> = {
  have: 'has',
  are: 'is',
  were: 'was',
  do: 'does',
  "'ve": 'has',
  '’ve': 'has',
  "'re": 'is',
  '’re': 'is',
}

/** "We also run 14 pantries; our volunteers …" → "The food bank also runs 14 pantries; its volunteers …". */
function intoThirdPerson(tokens: Token[], subject: Subject): Token[] {
  const out: Token[] = []
  let named = false
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]
    const word = token.text.toLowerCase()
    const replace = (text: string) => out.push({ ...token, text: index === 0 ? capitalise(text) : text })
    if (word === 'we') {
      replace(named ? 'it' : index === 0 ? subject.start : subject.mid)
      named = true
      // The verb that agreed with "we" now agrees with the organisation; adverbs may stand between.
      let next = index + 1
      while (tokens[next]?.pos === 'ADV') out.push(tokens[next++])
      const verb = tokens[next]
      if (verb && AUXILIARIES[verb.text.toLowerCase()]) {
        out.push({ ...verb, text: AUXILIARIES[verb.text.toLowerCase()], spaced: true })
        index = next
      } else if (verb && verb.pos === 'VERB' && verb.text.toLowerCase() === verb.lemma) {
        out.push({ ...verb, text: thirdPerson(verb.lemma) })
        index = next
      } else index = next - 1
    } else if (word === 'our') replace(index === 0 ? subject.possessive : 'its')
    else if (word === 'us') replace('it')
    else if (word === 'ours') replace('its own')
    else if (word === 'ourselves') replace('itself')
    else out.push(token)
  }
  return out
}

/** "drilling and repairing boreholes" → "drill and repair boreholes"; "Run 14 pantries" → "runs 14 pantries". */
function conjugated(tokens: Token[], we: boolean): Token[] {
  return tokens.map((token, index) => {
    const joined = index === 0 || tokens[index - 1].pos === 'CCONJ' || tokens[index - 1].text === ','
    if (!joined) return token
    const gerund = /^[a-z]+ing$/i.test(token.text) && (token.pos === 'VERB' || index === 0)
    const base = token.pos === 'VERB' && token.text.toLowerCase() === token.lemma
    if (!gerund && !base) return index === 0 ? { ...token, text: token.text.toLowerCase() } : token
    const lemma = gerund ? gerundLemma(token) : token.lemma
    return { ...token, text: we ? lemma : thirdPerson(lemma) }
  })
}

function gerundLemma(token: Token): string {
  if (token.pos === 'VERB' && token.lemma !== token.text.toLowerCase()) return token.lemma
  // The tagger read it as a noun ("drilling"): in a verb's place it gives the verb's lemma.
  const verb = tag(`They are ${token.text.toLowerCase()} it`)[2]
  return verb && verb.lemma !== verb.text ? verb.lemma : token.text.toLowerCase().replace(/ing$/, '')
}

export function thirdPerson(verb: string): string {
  const [first, ...rest] = verb.split(' ')
  const irregular: Record<string, string> = { be: 'is', have: 'has', do: 'does', go: 'goes' }
  const conjugated =
    irregular[first] ??
    (/(?:s|x|z|ch|sh|o)$/.test(first) ? `${first}es` : /[^aeiou]y$/.test(first) ? `${first.slice(0, -1)}ies` : `${first}s`)
  return [conjugated, ...rest].join(' ')
}

/** "waterborne illness down by 40%": a change stated without its verb. */
const CHANGE = /\s(?:up|down)(?=\s+(?:by|from|to)\s)/i

function pluralSubject(subject: Token[]): boolean {
  return subject.some(
    (token) =>
      (token.pos === 'NOUN' && token.text.toLowerCase() !== token.lemma) ||
      token.pos === 'CCONJ' ||
      (token.pos === 'NUM' && !/^(?:1|one)$/i.test(token.text)),
  )
}

/** "620 women agents trained, earning …" → "620 women agents were trained, earning …"; "since 2017" takes "have been". */
function withAuxiliary(tokens: Token[]): string {
  const verb = mainVerb(tokens)
  const subject = tokens.slice(0, verb)
  const plural = pluralSubject(subject)
  const perfect = tokens.slice(verb).some((token) => token.text.toLowerCase() === 'since')
  const text = perfect ? (plural ? 'have been' : 'has been') : plural ? 'were' : 'was'
  const auxiliary: Token = { text, pos: 'AUX', lemma: 'be', spaced: true }
  return untag([...subject, auxiliary, ...tokens.slice(verb)])
}

// ---- Letters ----

/** A phrase's first word lower-cased when it is an ordinary English word that starts no name. */
export function lowerFirst(text: string): string {
  const match = /^(\p{Lu}[\p{Ll}'’-]*)(?![\p{L}\p{N}])(\s+\S+)?/u.exec(text)
  if (!match) return text
  const [, word, next = ''] = match
  const startsName = /^\s+(?:\p{Lu}|of\s+\p{Lu})/u.test(next) || /^\s+\p{Lu}/u.test(next)
  if (startsName && word !== 'The') return text
  return isEnglishWord(word) ? word.toLowerCase() + text.slice(word.length) : text
}

/** Only an all-lowercase first word is capitalised, so a name like "iPad" keeps its spelling. */
export function capitalise(text: string): string {
  return /^[a-z][a-z'’-]*(?=[\s,.;:!?]|$)/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text
}

export function finish(text: string): string {
  const trimmed = text.trim().replace(/(?<![\s,;:–—-])[\s,;:–—-]+$/, '')
  const capitalised = capitalise(trimmed)
  return /[.!?…]["'”’)\]]*$/.test(capitalised) ? capitalised : `${capitalised}.`
}

const MASS_NOUNS = new Set(
  'help support advice food water training equipment housing transport care research education information guidance stock funding childcare insulation coaching tutoring mentoring counselling counseling therapy practice work lighting'.split(
    ' ',
  ),
)

/** "mobile pantry for rural towns" → "a mobile pantry for rural towns"; plurals and mass nouns stay bare. */
export function withArticle(phrase: string, item: Item): string {
  const first = item.tokens[0]
  const head = headNoun(item.tokens)
  if (!first || !head || /^\p{Lu}/u.test(phrase) || ['DET', 'NUM', 'PRON'].includes(first.pos)) return phrase
  const lemma = head.lemma.toLowerCase()
  if (head.text.toLowerCase() !== lemma || MASS_NOUNS.has(lemma) || /ing$/.test(lemma) || head.pos === 'PROPN') return phrase
  return `${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`
}

/** "make sure no one goes hungry" → "making sure no one goes hungry". */
export function gerundOf(purpose: string): string {
  const [first, ...rest] = purpose.split(' ')
  const verb = first.toLowerCase()
  const ing =
    verb === 'be'
      ? 'being'
      : /ie$/.test(verb)
        ? `${verb.slice(0, -2)}ying`
        : /[^aeoy]e$/.test(verb)
          ? `${verb.slice(0, -1)}ing`
          : /^[^aeiou]*[aeiou][^aeiouwxy]$/.test(verb)
            ? `${verb}${verb.at(-1)}ing`
            : `${verb}ing`
  return [ing, ...rest].join(' ')
}

/** "a, b and c". */
export function joinAnd(parts: string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}

/** The first clause of a long phrase: "bring safe water to rural communities so that no child …" → up to "so that". */
export function core(text: string, minWords = 5): string {
  const cut = /,?\s+(?:so that|so|in order to|by|through|which|who|especially|including|many of)\s/gi
  for (const match of text.matchAll(cut)) {
    if (text.slice(0, match.index).split(/\s+/).length >= minWords) return text.slice(0, match.index)
  }
  return text
}

// Where an item's first clause may end. A list is never cut short ("families, seniors and children"
// stays whole): ", and" ends a clause only when a clause follows it.
const ITEM_CUT = /,\s+and\s|;\s|,\s+(?:which|who|with|while)\s|\s+(?:so that|especially|including)\s/g

/** The item's first clause, as an item of its own: a voice that tells it briefly leaves the rest out. */
export function briefItem(item: Item, minWords = 5): Item {
  for (const match of item.text.matchAll(ITEM_CUT)) {
    if (item.text.slice(0, match.index).split(/\s+/).length < minWords) continue
    if (/^,\s+and/.test(match[0]) && mainVerb(tag(item.text.slice(match.index + match[0].length))) === -1) continue
    const text = item.text.slice(0, match.index)
    const tokens = tag(text)
    return { ...item, text, tokens, shape: item.shape === 'phrase' ? 'phrase' : reshape(item, tokens) }
  }
  return item
}

function reshape(item: Item, tokens: Token[]): Item['shape'] {
  return item.shape === 'participle' && !tokens.some((token) => token.pos === 'VERB' && isParticiple(token)) ? 'phrase' : item.shape
}
