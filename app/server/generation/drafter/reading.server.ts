import type { NarrativeInput } from '~/shared/narrative-schema'
import { countWords, cutAtSpace, trimEndMatching } from '~/shared/text'
import { AWARD, splitItems, splitSentences } from '~/shared/items'
import { probe, shortenRuns, tag } from '~/server/language/tagger.server'
import type { Contact, Item, Kind, Reading, Sector, Shape, Style } from '~/server/generation/drafter/contract.server'
import type { Token } from '~/server/language/tagger.server'

// Each long field becomes a list of tagged items, each given a shape (docs/decisions/021). Nothing here writes prose.

// Bounds that keep a draft linear in its input whatever was pasted.
const MAX_ITEMS = 12
const MAX_ITEM_WORDS = 45
const MAX_STORY_WORDS = 70
/** How much of each field the organisation's kind, sector and spelling are read from. */
const MAX_SCAN_CHARS = 2000
/** What one sentence may copy of an item, whatever its words' length. */
export const MAX_ITEM_CHARS = 320
const SHORT_DETAIL_WORDS = 12

export function readInput(input: NarrativeInput): Reading {
  const name = input.company?.trim() || null
  const names = [namesWords(name), ...programmeNames(input.keyPrograms)]
  const readField = (value: string | undefined) => readNamedField(value, names)
  const impact = readField(input.impactMetrics)
  const programmes = readField(input.keyPrograms)
  const text = inputText(input)
  const company = isCompany(name ?? '', text)
  const kind = kindOf(name ?? '', text, company)
  return {
    name,
    descriptor: descriptorOf(name, text, kind, company),
    kind,
    sector: sectorOf(text, kind, company),
    mission: readField(input.missionStatement),
    audience: readField(input.targetAudience).map(asDescription),
    places: readField(input.geographicFocus).map(asDescription).map(asPlace),
    programmes: programmes.filter((item) => !item.award),
    results: leaning(impact.filter((item) => !item.award)),
    awards: [...impact, ...programmes].filter((item) => item.award),
    story: readStory(input.successStory),
    contact: readContact(input),
    website: cleanWebsite(input.website),
    // The name is no spelling the organisation chose for its prose ("Highland Growers Co-operative" in Peru).
    style: styleOf(text.slice(text.indexOf('\n') + 1), [input.website, input.contactEmail1, input.contactEmail2].join(' ')),
    seed: hash(name ?? ''),
  }
}

/** A result that leans on the one before it ("Since then …", "Of those, …"): told only after it, never alone. */
const POINTS_BACK =
  /^(?:since then|since that|of (?:those|these|them)|that|this|these|those|over the (?:same )?(?:year|period)|in the same|it|they|the rest)\b/i

function leaning(results: Item[]): Item[] {
  return results.map((item, index) => (index > 0 && POINTS_BACK.test(item.text) ? { ...item, leans: true } : item))
}

function inputText(input: NarrativeInput): string {
  return [
    input.company,
    input.missionStatement,
    input.keyPrograms,
    input.impactMetrics,
    input.targetAudience,
    input.geographicFocus,
    input.successStory,
  ]
    .map((field) => (field ?? '').slice(0, MAX_SCAN_CHARS))
    .join('\n')
}

function readNamedField(value: string | undefined, names: string[][]): Item[] {
  return splitItems(value, MAX_ITEMS)
    .map((piece) => toItem(piece, names))
    .filter((item) => /\p{L}{2}/u.test(item.text))
}

function toItem(piece: string, names: string[][] = []): Item {
  const text = trimEndMatching(cutAtSpace(shortenText(shortenRuns(piece), MAX_ITEM_WORDS), MAX_ITEM_CHARS), /[\s.;,:…]/)
  const tagged = tag(text)
  const labelled = asLabelled(tagged)
  const tokens = labelled ?? withVerbFound(names.reduce(asNamed, tagged))
  if (labelled) return { text, tokens, shape: 'clause', figure: /\d/.test(text), award: AWARD.test(text), named: true }
  const shape = shapeOf(tokens)
  // "More than 850 volunteers mentor with us, backed by 24 specialists": a verb the tagger missed before a participle.
  const hidden = shape === 'phrase' || shape === 'participle' || (shape === 'clause' && mainVerb(tokens) === -1) ? hiddenVerb(tokens) : -1
  return hidden === -1
    ? { text, tokens, shape, figure: /\d/.test(text), award: AWARD.test(text) }
    : {
        text,
        tokens: tokens.map((token, index) => (index === hidden ? { ...token, pos: 'VERB' } : token)),
        shape: 'clause',
        figure: /\d/.test(text),
        award: AWARD.test(text),
      }
}

/** Where a sentence the tagger read as a phrase has its verb ("each trishaw costs about €11,000"); -1 for a true phrase. */
function hiddenVerb(tokens: Token[]): number {
  // "We redistributed 412 tonnes …": what follows a subject pronoun is its verb, however the tagger read it.
  if (SUBJECT_PRONOUNS.has(tokens[0]?.text.toLowerCase() ?? '') && /^\p{Ll}+$/u.test(tokens[1]?.text ?? '')) return 1
  let relative = false
  for (let index = 1; index < tokens.length; index++) {
    const token = tokens[index]
    const word = token.text.toLowerCase()
    if (RELATIVE.has(word)) relative = true
    else if (isVerb(token)) {
      if (relative) {
        relative = false
        // Its auxiliaries lead to its own verb ("that would otherwise have been thrown away"), and no further.
        while (
          tokens[index].pos === 'AUX' &&
          (isVerb(tokens[index + 1]) || (tokens[index + 1]?.pos === 'ADV' && isVerb(tokens[index + 2])))
        )
          index += isVerb(tokens[index + 1]) ? 1 : 2
      } else if (!/ing$/.test(word) && !(isParticiple(token) && tokens[index - 1].pos === 'NOUN')) return index
    } else if (!relative && nounAsVerb(token, tokens[index - 1], tokens[index + 1], tokens[index + 2])) return index
  }
  return -1
}

/** "costs about", "stays with", "run every": a word the tagger read as a noun, between a subject and what it does. */
function nounAsVerb(token: Token, before: Token, after: Token | undefined, then?: Token): boolean {
  const gerund = before.pos === 'VERB' && /ing$/i.test(before.text)
  const quantifier = /^(?:many|most|some|all)$/i.test(before.text)
  if (token.pos !== 'NOUN' || !(['NOUN', 'PROPN', 'NUM', 'PRON'].includes(before.pos) || gerund || quantifier) || !after) return false
  // "Eight members volunteer as drivers", "Many work in restaurants": a plural subject, and a verb in its plain form.
  const plural = (before.pos === 'NOUN' && /[^s]s$/i.test(before.text) && before.text.toLowerCase() !== before.lemma) || quantifier
  const preposition = after.pos === 'ADP' && plural && !/s$/i.test(token.text)
  const object = ['ADV', 'PRON', 'DET', 'NUM'].includes(after.pos) || after.text.toLowerCase() === 'that' || preposition
  const time =
    /^(?:each|per)$/i.test(after.text) || (/^an?$/i.test(after.text) && /^(?:day|week|month|year|night|term)$/i.test(then?.text ?? ''))
  if (!object || time) return false
  const word = token.text.toLowerCase()
  const read = probe(/[^s]s$/.test(word) ? `it ${word} them` : `they ${word} them`, 1)
  return read?.pos === 'VERB' && (word.endsWith('s') ? read.lemma.toLowerCase() !== word : true)
}

/** "Grow Your Own workshops: monthly sessions …": the name before the colon is a proper noun, never a verb to conjugate. */
function asLabelled(tokens: Token[]): Token[] | null {
  const colon = tokens.findIndex((token) => token.text === ':')
  if (colon < 1 || colon > LABEL_MAX_WORDS || colon === tokens.length - 1) return null
  if (tokens.slice(0, colon).some((token) => token.pos === 'PUNCT' && token.text !== '-' && token.text !== '&')) return null
  return tokens.map((token, index) => (index < colon && token.pos !== 'PUNCT' ? { ...token, pos: 'PROPN' } : token))
}

const LABEL_MAX_WORDS = 6

/** The organisation's name as words, without its legal form: "Miss Meringue CIC" is called "Miss Meringue" too. */
function namesWords(name: string | null): string[] {
  return (name ?? '')
    .replace(/\s*\([^)]*\)/g, '')
    .split(/\s+/)
    .filter(Boolean)
}

/** Programme names written "Name: what it does" with a capital: met elsewhere, they are names too. */
function programmeNames(keyPrograms: string | undefined): string[][] {
  return splitItems(keyPrograms, MAX_ITEMS).flatMap((piece) => {
    const label = /^([^:;.!?]{2,60}):\s+\S/u.exec(piece.trim())?.[1].trim()
    const words = label?.split(/\s+/) ?? []
    return words.length && words.length <= LABEL_MAX_WORDS && /^\p{Lu}/u.test(words[0]) ? [words] : []
  })
}

/** The organisation's name, in its order and capitals, is one proper noun, never a verb ("Turn the Page helps adults"). */
function asNamed(tokens: Token[], nameWords: string[]): Token[] {
  if (nameWords.length === 0) return tokens
  const marked = tokens.slice()
  for (let at = 0; at < tokens.length; at++) {
    let length = 0
    while (length < nameWords.length && tokens[at + length]?.text === nameWords[length]) length++
    const opensBeforeItsVerb = at === 0 && length === 1 && isVerb(tokens[1]) && !/ing$/.test(tokens[1].text)
    // The whole name, or enough of it to be the name: two words, or the one word a one-word name has.
    if ((length < Math.min(2, nameWords.length) && !opensBeforeItsVerb) || !/^\p{Lu}/u.test(tokens[at].text)) continue
    for (let index = at; index < at + length; index++) marked[index] = { ...tokens[index], pos: 'PROPN' }
    at += length - 1
  }
  return marked
}

/** The small tagger reads a verb in -s after a name as a plural noun ("Our warehouse stocks 40 pantries"). */
function withVerbFound(tokens: Token[]): Token[] {
  if (tokens.some(isVerb) || !['DET', 'PROPN', 'PRON'].includes(tokens[0]?.pos ?? '')) return tokens
  for (let index = 1; index < tokens.length - 1; index++) {
    const token = tokens[index]
    const next = tokens[index + 1]
    if (token.pos === 'ADP' || token.pos === 'PUNCT') return tokens
    if (token.pos !== 'NOUN' || !/[a-z]s$/.test(token.text) || !['DET', 'NUM', 'ADJ', 'NOUN', 'PROPN', 'PRON'].includes(next.pos)) continue
    if (probe(`to ${token.lemma} them`, 1)?.pos !== 'VERB') continue
    return tokens.map((other, at) => (at === index ? { ...other, pos: 'VERB' } : other))
  }
  return tokens
}

/** Whom and where are described, not narrated: a phrase, unless a clause of the organisation's own ("We work in 14 schools"). */
function asDescription(item: Item): Item {
  // "85% live at or below the poverty line": the small tagger finds no finite verb after a share.
  const verb =
    mainVerb(item.tokens) === -1
      ? item.tokens.findIndex(
          (token, index) => isVerb(token) || (index > 0 && verbInS(token, item.tokens[index - 1], item.tokens[index + 1])),
        )
      : mainVerb(item.tokens)
  const before = item.tokens.slice(0, verb)
  const own = verb > 0 && before.some((token) => SUBJECT_PRONOUNS.has(token.text.toLowerCase()))
  // "Many are neurodivergent and most have been out of work": a sentence about some of them, kept as they wrote it.
  const ofThem = verb > 0 && before.every((token) => QUANTIFIERS.test(token.text) || token.pos === 'NUM' || token.text === '%')
  if (SUBJECT_PRONOUNS.has(item.tokens[0]?.text.toLowerCase() ?? '')) return item
  return { ...item, shape: own || ofThem || statesAFact(item.tokens, verb) ? 'clause' : 'phrase' }
}

/** "Our main workshop is in Winnipeg": a sentence with its own verb, told as written; a description keeps its verb in a modifier. */
function statesAFact(tokens: Token[], found: number): boolean {
  if (/^according$/i.test(tokens[0]?.text ?? '') && tokens[1]?.text.toLowerCase() === 'to') return true
  // "Around one in four people aged 65 and over … lives alone": past the modifier to the verb.
  let verb = found
  while (verb > 0 && MODIFYING_PARTICIPLES.has(tokens[verb].text.toLowerCase())) {
    verb = tokens.findIndex((other, index) => index > verb && (isVerb(other) || verbInS(other, tokens[index - 1], tokens[index + 1])))
  }
  if (verb <= 0) return false
  const token = tokens[verb]
  const word = token.text.toLowerCase()
  // A noun the tagger read as a verb ("the north side (ZIP codes …)", "on work permits, and …") ends a phrase.
  const next = tokens[verb + 1]
  if (!next || next.pos === 'PUNCT' || next.pos === 'CCONJ') return false
  if (tokens.slice(0, verb).some((other) => RELATIVE.has(other.text.toLowerCase())) || tokens[verb - 1].pos === 'ADJ') return false
  if (!isVerb(token)) return true
  if (token.pos === 'AUX' || next.text.toLowerCase() === 'that') return true
  if (word.endsWith('ing') || MODIFYING_PARTICIPLES.has(word)) return false
  return word !== token.lemma.toLowerCase() && /[^s]s$/.test(word)
    ? true
    : word === token.lemma.toLowerCase() ||
        !/ed$/.test(word) ||
        ['NUM', 'DET'].includes(next.pos) ||
        // "counted about 122,000", not "graduates supported back into communities".
        (next.pos === 'ADV' && tokens[verb + 2]?.pos === 'NUM')
}

/** "… in Ireland lives alone", "1 in 10 Calgarians lives in poverty": the tagger reads a verb in -s as a plural noun. */
function verbInS(token: Token, before: Token, next: Token | undefined): boolean {
  // After its subject: "land-based trips to …" are trips.
  if (!['NOUN', 'PROPN', 'NUM'].includes(before.pos)) return false
  // Its lemma as a noun may be another word ("lives", "life"): the word without its -s is the verb's.
  return (
    token.pos === 'NOUN' &&
    /[a-z]s$/.test(token.text) &&
    (next?.pos === 'ADV' || (next?.pos === 'ADP' && next.text.toLowerCase() !== 'of')) &&
    probe(`to ${token.text.slice(0, -1)} them`, 1)?.pos === 'VERB'
  )
}

/** Participles that describe people rather than tell what they did ("children aged 6 to 14"). */
const MODIFYING_PARTICIPLES = new Set(['aged', 'based', 'born', 'called', 'known', 'named'])

const QUANTIFIERS = /^(?:many|most|some|all|half|few|several|nearly|almost|about|around|over|of|them|these|those|one|two|three|four|five)$/i

/** A place is named as written ("Cork city", "Western Kenya") unless it opens on an ordinary word ("Rural districts of Ghana"). */
function asPlace(item: Item): Item {
  const first = /^\p{Lu}[\p{L}'’-]*/u.exec(item.text)?.[0]?.toLowerCase()
  return first && !COMMON_PLACE_STARTS.has(first) ? { ...item, keepCase: true } : item
}

const COMMON_PLACE_STARTS = new Set(
  'the a an rural urban remote coastal inner-city inner low-income small local communities neighborhoods neighbourhoods schools towns villages cities counties districts areas regions across in throughout around within at from on along near parts most all every several mainly mostly primarily'.split(
    ' ',
  ),
)

const RELATIVE = new Set(['who', 'that', 'which', 'whose', 'where', 'whom'])
const SUBJECT_PRONOUNS = new Set(['we', 'they', 'it', 'i', 'you', 'he', 'she'])

export function isVerb(token: Token | undefined): boolean {
  return token !== undefined && (token.pos === 'VERB' || token.pos === 'AUX')
}

/** Where the item's main verb is: the first verb that is not in a relative clause, an infinitive or a modifier. */
export function mainVerb(tokens: Token[]): number {
  let relative = false
  let brackets = 0
  for (const [index, token] of tokens.entries()) {
    const word = token.text.toLowerCase()
    // "sensors (built for under $400)": what a bracket holds is an aside, never the item's main verb.
    if (token.text === '(' || token.text === '[') brackets++
    if ((token.text === ')' || token.text === ']') && brackets > 0) brackets--
    if (RELATIVE.has(word) && index > 0) relative = true
    if (token.text === ',') relative = false
    if (brackets > 0 || relative || !isVerb(token) || !isFinite(tokens, index)) continue
    return index
  }
  return -1
}

function isFinite(tokens: Token[], index: number): boolean {
  const token = tokens[index]
  const word = token.text.toLowerCase()
  const before = tokens[index - 1]
  const after = tokens[index + 1]
  // "pay-what-you-can tickets": words joined by hyphens are one modifier.
  if ((after?.text === '-' && !after.spaced) || (before?.text === '-' && !token.spaced)) return false
  if (token.pos === 'AUX') return true
  if (before && (before.text.toLowerCase() === 'to' || before.text.toLowerCase() === 'being' || before.pos === 'DET')) return false
  if (/ing$/.test(word)) return index === 0 || isVerb(before)
  let subject = index - 1
  while (tokens[subject]?.pos === 'ADV') subject--
  if (tokens[subject]?.text === ')') {
    while (subject > 0 && tokens[subject].text !== '(') subject--
    subject--
  }
  // The verb agrees with the subject's head: "lending" in "iPad lending for students keeps …".
  const preposition = tokens.slice(0, subject).findIndex((other) => other.pos === 'ADP')
  const head = preposition > 0 && tokens[preposition - 1].pos === 'NOUN' ? tokens[preposition - 1] : tokens[subject]
  if (!head) return true
  const plural = (head.pos === 'NOUN' && head.text.toLowerCase() !== head.lemma) || (head.pos === 'PROPN' && /[^s]s$/i.test(head.text))
  const numbered = tokens.slice(0, index).some((other) => other.pos === 'NUM' && !/^(?:1|one)$/i.test(other.text))
  if (word === token.lemma) return head.pos === 'PRON' || head.pos === 'AUX' || head.pos === 'PART' || plural
  // "meal packs for …", "4,300 weekend meal packs each week": a noun-looking verb in a noun compound.
  if (/s$/.test(word) && `${token.lemma}s` === word.replace(/es$/, 's') && head.pos === 'NOUN')
    return !plural && !numbered && after?.pos !== 'ADP'
  return true
}

/** "Renting a kitchen costs $45 an hour": the gerund is the subject of a verb of its own. */
function gerundSubject(tokens: Token[]): boolean {
  for (let index = 2; index < tokens.length; index++) {
    const token = tokens[index]
    const word = token.text.toLowerCase()
    if (RELATIVE.has(word)) return false
    if (token.pos === 'AUX' && /^(?:is|was|has|does)$/.test(word)) return true
    if (token.pos === 'VERB' && /[^s]s$/.test(word) && word !== token.lemma) return true
    if (nounAsVerb(token, tokens[index - 1], tokens[index + 1], tokens[index + 2]) && /[^s]s$/.test(word)) return true
  }
  return false
}

function shapeOf(tokens: Token[]): Shape {
  const first = tokens[0]
  if (!first) return 'phrase'
  if (first.text.toLowerCase() === 'to' && isVerb(tokens[1])) return 'infinitive'
  if (isGerundStart(tokens)) return gerundSubject(tokens) ? 'clause' : 'headless'
  if (/^according$/i.test(first.text) && tokens[1]?.text.toLowerCase() === 'to') return 'clause'
  const verb = mainVerb(tokens)
  // "Through ShoreWatch, our network, residents use …": an opening adverbial and a comma lead to a clause.
  if (verb === -1)
    return (first.pos === 'ADP' || first.pos === 'SCONJ') && tokens.some((token) => token.text === ',') && tokens.some(isVerb)
      ? 'clause'
      : 'phrase'
  if (verb === 0) {
    if (tokens[0].pos === 'AUX') return 'clause'
    // "Trained 620 agents" has no subject; "Refurbished laptops", "Shared drying facilities" are phrases.
    const past = isParticiple(tokens[0])
    return !past || ['DET', 'NUM', 'PRON'].includes(tokens[1]?.pos ?? '') ? 'headless' : 'phrase'
  }
  const subject = tokens.slice(0, verb)
  const token = tokens[verb]
  const next = tokens[verb + 1]
  // "146 homes owned by the co-operative" names its agent: it is told as the phrase it is.
  const agent = next?.text.toLowerCase() === 'by' && tokens[verb + 2] !== undefined && tokens[verb + 2].pos !== 'NUM'
  if (
    token.pos === 'VERB' &&
    isParticiple(token) &&
    !INTRANSITIVE.has(token.lemma) &&
    agent &&
    !SUBJECT_PRONOUNS.has(subject[0]?.text.toLowerCase())
  )
    return 'phrase'
  // "sensors now run in 60 homes": a verb whose participle is its plain form agrees with a plural subject.
  const presentPlural =
    token.text.toLowerCase() === token.lemma && subject.some((word) => word.pos === 'NOUN' && word.text.toLowerCase() !== word.lemma)
  // "30 young people applied for the 12 places": people act; only the organisation's own words say whether they were acted on.
  const peopleActing = PEOPLE_ACTS.has(token.lemma.toLowerCase()) && subject.some((word) => PEOPLE.test(word.text))
  const participle =
    token.pos === 'VERB' &&
    isParticiple(token) &&
    !presentPlural &&
    !peopleActing &&
    // "Trading since 2012 and registered as a CIC in 2013": what comes before "and" is no subject to give "was".
    subject.at(-1)?.pos !== 'CCONJ' &&
    !INTRANSITIVE.has(token.lemma) &&
    !subject.some((word) => SUBJECT_PRONOUNS.has(word.text.toLowerCase())) &&
    // A name acts ("Reconnect worked with 86 families"); nobody "was worked with" or "was sailed with".
    !subject.every((word) => word.pos === 'PROPN') &&
    next?.text.toLowerCase() !== 'with' &&
    !/^(?:(?:just|well) )?(?:at (?:least|most)|more than|over|nearly|almost|about|around)\b/i.test(
      untagged(tokens.slice(verb + 1, verb + 4)),
    ) &&
    // "62% of learners tested in the fall moved up …": the first participle describes; the later verb is the clause's.
    !tokens
      .slice(verb + 1)
      .some(
        (later, index) =>
          later.pos === 'VERB' && isParticiple(later) && tokens[verb + index].pos !== 'CCONJ' && tokens[verb + index].text !== ',',
      ) &&
    // "96 of them turned out five times": a verb and its particle, done by the people themselves.
    !/^(?:out|up)$/i.test(next?.text ?? '') &&
    (!next || next.pos === 'PUNCT' || next.pos === 'ADP' || next.pos === 'ADV' || next.pos === 'SCONJ')
  return participle ? 'participle' : 'clause'
}

/** Verbs a figure does by itself ("Attendance increased by 40%"): whole clauses, not fragments waiting for "was". */
const INTRANSITIVE = new Set(
  'increase decrease rise fall grow drop decline improve double triple halve exceed reach climb jump shrink expand move graduate return remain stay arrive happen succeed finish continue recover bring'.split(
    ' ',
  ),
)

/** What people do themselves, which "120 tenants housed" is not. */
const PEOPLE_ACTS = new Set('apply attend enrol enroll join volunteer sign come go turn ask take register'.split(' '))
const PEOPLE =
  /^(?:people|persons?|children|adults|young|youth|men|women|families|households|members|volunteers|learners|students|pupils|participants|clients|trainees|graduates|parents|carers|residents|seniors|tenants|patients|refugees|veterans)$/i

function untagged(tokens: Token[]): string {
  return tokens.map((token) => token.text).join(' ')
}

function isGerundStart(tokens: Token[]): boolean {
  const first = tokens[0]
  if (!/^[a-z]+ing$/i.test(first.text) || /^(?:during|bring|sing|thing|spring|string|king|ring|wing|morning|evening)$/i.test(first.text))
    return false
  if (first.pos === 'VERB') return true
  // "drilling and repairing boreholes": a noun-tagged first word joined to a verb in -ing.
  if (tokens[1]?.pos === 'CCONJ' && tokens[2]?.pos === 'VERB' && /ing$/i.test(tokens[2].text)) return true
  // "cooking classes", "sewing workshops": the -ing word names the class, it is not done to it.
  if (tokens[1]?.pos === 'NOUN' && GATHERINGS.test(tokens[1].text)) return false
  // "training village committees to maintain them" takes an object; "reading volunteers from …" is a noun.
  const object =
    ['DET', 'NUM', 'PRON'].includes(tokens[1]?.pos ?? '') || (tokens[1]?.pos === 'NOUN' && !NOMINAL_ING.has(first.text.toLowerCase()))
  return (
    object ||
    (tokens[1]?.pos === 'NOUN' && tokens.some((token, index) => token.text.toLowerCase() === 'to' && tokens[index + 1]?.pos === 'VERB'))
  )
}

const GATHERINGS =
  /^(?:class|lesson|session|workshop|club|group|course|program|programme|camp|night|circle|school|lab|day|event|competition)(?:e?s)?$/i

const NOMINAL_ING = new Set(
  'reading training housing funding learning building clothing meeting catering counselling counseling mentoring tutoring coaching teaching writing painting'.split(
    ' ',
  ),
)

const IRREGULAR_PARTICIPLES = new Set(
  'built grown sold given taken made won held run taught written seen done kept met brought found led paid spent set shown known grown begun become chosen drawn driven eaten fallen flown forgotten frozen hidden ridden risen shaken spoken stolen sworn torn thrown woken worn cut put read lent sent'.split(
    ' ',
  ),
)

export function isParticiple(token: Token): boolean {
  const word = token.text.toLowerCase()
  return (/ed$/.test(word) && word !== token.lemma) || IRREGULAR_PARTICIPLES.has(word)
}

const DANGLING_WORDS = new Set('and or but the a an of to in for with by on at from'.split(' '))

/** At most `maxWords` words, ending at a comma or semicolon in the second half where there is one. */
export function shortenText(text: string, maxWords: number): string {
  if (countWords(text) <= maxWords) return text
  const words = text.split(/\s+/).filter(Boolean).slice(0, maxWords)
  let end = words.length
  for (let index = maxWords; index > Math.ceil(maxWords / 2); index--) {
    if (/[,;:]$/.test(words[index - 1])) {
      end = index
      break
    }
  }
  let kept = words.slice(0, end)
  while (
    kept.length > 1 &&
    DANGLING_WORDS.has(
      kept
        .at(-1)!
        .toLowerCase()
        .replace(/[,;:]$/, ''),
    )
  )
    kept = kept.slice(0, -1)
  return trimEndMatching(kept.join(' '), /[\s,;:–—-]/)
}

const COMPANY_SUFFIX = /\b(?:ltd|limited|inc|llc|l\.l\.c|plc|corp|corporation|gmbh|pty|cic|b\.?v|s\.?a)\.?$/i

/** "Inc." is a company unless the inputs say non-profit or write British English: there it is an incorporated association. */
function isCompany(name: string, text: string): boolean {
  if (!COMPANY_SUFFIX.test(name)) return false
  if (!/\binc\.?$/i.test(name)) return true
  return !NON_PROFIT.test(text) && (FOR_PROFIT.test(text) || (text.match(BRITISH) ?? []).length <= (text.match(AMERICAN) ?? []).length)
}

function kindOf(name: string, text: string, company: boolean): Kind {
  if (/\b(?:co-?op(?:erative)?|coop)\b/i.test(name)) return 'co-operative'
  if (/\b(?:lab|laboratory|research|institute|observatory|unit)\b/i.test(name)) return 'research'
  if (/\b(?:school|academy|college|nursery|kindergarten)\b/i.test(name)) return 'school'
  if (/\b(?:theatre|theater|orchestra|choir|gallery|museum|arts?|dance|opera|festival|ensemble|studio|circus|film)\b/i.test(name))
    return 'arts'
  if (PUBLIC.test(name)) return 'public'
  if (company || FOR_PROFIT.test(text)) return 'enterprise'
  if (NON_PROFIT.test(text)) return 'charity'
  return 'unknown'
}

const PUBLIC =
  /\b(?:council|department|authority|agency|ministry|municipal(?:ity)?|public (?:health|library|libraries|schools?|sector|agency|utility)|county government|city of|nhs|government|state-funded|publicly funded)\b/i
const FOR_PROFIT =
  /\b(?:for-profit|b corp|(?:our|its) customers|we sell|sells|(?:sold|sales) to|revenue|profitable|social enterprise|small business|(?:is|are) a (?:company|business|start-?up))\b/i
const NON_PROFIT = /\b(?:charity|charitable|non-?profit|not-for-profit|501\s?\(c\)|donors?|donations?)\b/i

function sectorOf(text: string, kind: Kind, company: boolean): Sector {
  // A charity that names the council it advises or is commissioned by is still a charity.
  if (kind === 'charity') return 'non-profit'
  if (kind === 'public' || PUBLIC.test(text)) return 'public'
  if (kind === 'enterprise' || company) return 'for-profit'
  return 'non-profit'
}

const ORGANISATION_NOUNS = new Set(
  'bank lab laboratory trust project school academy college alliance foundation charity network centre center collective co-operative cooperative theatre theater orchestra choir company ensemble gallery museum festival institute partnership society association club enterprise initiative clinic kitchen farm studio unit hub library council department agency authority service coalition consortium fund pantry'.split(
    ' ',
  ),
)
/** Nouns an organisation is named after that are also places it has ("our kitchen", "the studio"). */
const FACILITIES = new Set(['kitchen', 'studio', 'farm', 'hub', 'library', 'garden', 'theatre', 'theater', 'clinic', 'gallery'])

/** The word the organisation uses of itself ("We are a registered charity"); not "works as a laboratory assistant". */
const SELF_DESCRIPTION =
  /\b(?:we are|we're|we’re|is|as) an? (?:(?:registered|small|local|community|independent|grassroots|national|regional|public|private|social|non-?profit|not-for-profit|for-profit|[a-z]+-(?:led|run|owned|based|driven|funded)|scottish|welsh|english|irish|british|american|canadian|australian|european|international)\s+){0,3}(charity|non-?profit|company|business|enterprise|co-?operative|cooperative|start-?up|agency|clinic|school|college|university|hospital|museum|library|foundation|trust|network|centre|center|collective|partnership|institute|lab|laboratory|service|council)\b(?!\s+(?:assistants?|workers?|technicians?|managers?|officers?|staff|volunteers?|members?|shops?|teams?)\b)/i

function descriptorOf(name: string | null, text: string, kind: Kind, company: boolean): string {
  // "Center for Rural Water Safety" is a center: the head of the name comes before "for", "of" or "at".
  const head = (name ?? '').toLowerCase().split(/\s+(?:for|of|at|on|in)\s+/)[0]
  const words = head.split(/\s+/)
  const last = words.at(-1) ?? ''
  if (last === 'bank' && words.at(-2) === 'food') return 'the food bank'
  // "Open Door Kitchen" is not "the kitchen" where its inputs speak of "our kitchen": "the kitchen opened its kitchen".
  const unnamed = name ? text.split(name).join(' ') : text
  const free = (noun: string) => !new RegExp(`\\b${noun}s?\\b`, 'i').test(unnamed)
  if (ORGANISATION_NOUNS.has(last) && (!FACILITIES.has(last) || free(last))) return `the ${last}`
  const said = SELF_DESCRIPTION.exec(text)?.[1]?.toLowerCase()
  if (said) return `the ${said.replace(/^non-?profit$/, 'nonprofit').replace(/^co-?operative$/, 'co-operative')}`
  if (company) return 'the company'
  if (kind === 'co-operative') return 'the co-operative'
  return 'the organization'
}

/** Its own words decide its spelling; failing them its addresses or currency (".org.uk", "£"); else American, as the form is. */
function styleOf(text: string, addresses: string): Style {
  const british = (text.match(BRITISH) ?? []).length + (BRITISH_PLACES.test(addresses) || /£/.test(text) ? 1 : 0)
  const american = (text.match(AMERICAN) ?? []).length
  const curly = (text.match(/\p{L}’\p{L}/gu) ?? []).length
  const straight = (text.match(/\p{L}'\p{L}/gu) ?? []).length
  return { spelling: british > american ? 'uk' : 'us', apostrophe: curly > straight ? '’' : "'" }
}

const BRITISH =
  /\b(?:programmes?|co-operatives?|\w+isations?|centres?|neighbours?|neighbourhoods?|colours?|behaviours?|labour|favour\w*|honour\w*|recognised|organised|realised|specialised|prioritised|mobilised|enrolment|catalogue|metres?|litres?|travelled|licence|defence|mum|analysed|modelling)\b/gi
const AMERICAN =
  /\b(?:programs?|cooperatives?|\w+izations?|centers?|neighbors?|neighborhoods?|colors?|behaviors?|labor|favor\w*|honor\w*|recognized|organized|realized|specialized|prioritized|mobilized|enrollment|judgment|meters?|liters?|traveled|defense|mom|analyzed|modeling)\b/gi
const BRITISH_PLACES = /\.(?:uk|ie|au|nz|za)\b/i

/** The story's opening sentences, which say who, and its last, which says what changed. */
function readStory(value: string | undefined): string | null {
  const text = cutAtSpace(shortenRuns((value ?? '').replace(/\s+/g, ' ').trim()), MAX_STORY_CHARS)
  if (!/\p{L}{2}/u.test(text)) return null
  const sentences = splitSentences(text)
  const from = endingFrom(sentences)
  const ending = sentences.slice(from).join(' ')
  // An ending too long to keep whole is no ending: the story is then its first sentences, as many as fit.
  const last = from > 0 && countWords(ending) <= MAX_STORY_WORDS / 2 ? ending : ''
  // Counted as it grows: a story of 3,000 characters of "!" is 1,500 sentences of no words.
  let words = countWords(last)
  const kept: string[] = []
  for (const sentence of last ? sentences.slice(0, from) : sentences) {
    words += countWords(sentence)
    if (kept.length && words > MAX_STORY_WORDS) break
    kept.push(sentence)
  }
  const story = shortenText([...kept, last].filter(Boolean).join(' '), MAX_STORY_WORDS)
  return /[.!?…]["'”’)]*$/.test(story) ? story : `${trimEndMatching(story, /[\s,;:]/)}.`
}

/** Where a story's ending starts: its last sentence, or the one opening the quotation it closes, so the words have their speaker. */
function endingFrom(sentences: string[]): number {
  const last = sentences.length - 1
  // "'I always thought saving was for people with money,' she says. 'It turns out …'": one speech, said in two.
  if (last >= 1 && OPENS_QUOTE.test(sentences[last]) && SAID.test(sentences[last - 1])) return last - 1
  if (last < 1 || !/['’"”]\W*$/.test(sentences[last]) || OPENS_QUOTE.test(sentences[last])) return last
  for (let index = last - 1; index >= Math.max(0, last - 3); index--) if (OPENS_QUOTE.test(sentences[index])) return index
  return last
}

/** A sentence that gives a quotation its speaker at its end. */
const SAID = /['’"”],?\s+(?:\p{L}+\s+){0,3}(?:says|said|adds|added|told us|tells us|explains|explained)\.$/u

const OPENS_QUOTE = /(?:^|[\s(:])['‘"“]\S/

/** How much of a story is read: a long one is told by its first sentence and its end, so its end must be read too. */
const MAX_STORY_CHARS = 3000

function readContact(input: NarrativeInput): Contact | null {
  const primary = [input.contactName1, input.contactTitle1, input.contactEmail1, input.contactPhone1]
  const secondary = [input.contactName2, input.contactTitle2, input.contactEmail2, input.contactPhone2]
  return toContact(primary) ?? toContact(secondary)
}

function toContact(parts: Array<string | undefined>): Contact | null {
  const [name, title, email, phone] = parts.map((part) => shortenText(part?.trim() ?? '', SHORT_DETAIL_WORDS))
  return name || email || phone ? { name, title, email, phone } : null
}

function cleanWebsite(website: string | undefined): string | null {
  const url = trimEndMatching(website?.trim().split(/\s+/)[0] ?? '', /[/.,;:]/)
  // A bare domain is given its scheme, so that it reads (and splits into sentences) as one address.
  return url && !/^[a-z]+:\/\//i.test(url) && /^[\w-]+(?:\.[\w-]+)+(?:\/\S*)?$/.test(url) ? `https://${url}` : url || null
}

/** FNV-1a: a stable number for a name, the same on every machine. */
function hash(text: string): number {
  let value = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index)
    value = Math.imul(value, 0x01000193)
  }
  return value >>> 0
}
