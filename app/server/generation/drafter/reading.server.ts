import type { NarrativeInput } from '~/shared/narrative-schema'
import { countWords } from '~/shared/text'
import { shortenRuns, tag } from '~/server/generation/drafter/tagger.server'
import type { Contact, Item, Kind, Reading, Shape, Token } from '~/server/generation/drafter/contract.server'

// Reading the form as structure (docs/decisions/021): each long field becomes a list of items (its lines, bullets,
// numbered points, semicolon parts or sentences), each item tagged and given a shape, so the writer can
// turn it into a sentence of its own. Nothing here writes prose.

// Bounds that keep a draft linear in its input and short whatever was pasted: only the first items of a
// field are read, and an item is cut to a length no narrative sentence needs to exceed.
const MAX_ITEMS = 8
const MAX_ITEM_WORDS = 45
/** What one sentence may copy of an item, whatever its words' length. */
export const MAX_ITEM_CHARS = 320
const SHORT_DETAIL_WORDS = 12

export function readInput(input: NarrativeInput): Reading {
  const impact = readField(input.impactMetrics)
  const programmes = readField(input.keyPrograms)
  const name = input.company?.trim() || null
  const kind = kindOf(name ?? '', `${input.missionStatement ?? ''} ${input.keyPrograms ?? ''}`.slice(0, 2000))
  return {
    name,
    descriptor: descriptorOf(name, kind),
    kind,
    mission: readField(input.missionStatement),
    audience: readField(input.targetAudience).map(asDescription),
    places: readField(input.geographicFocus).map(asDescription),
    programmes: programmes.filter((item) => !item.award),
    results: impact.filter((item) => !item.award),
    awards: [...impact, ...programmes].filter((item) => item.award),
    contact: readContact(input),
    website: cleanWebsite(input.website),
    seed: hash(name ?? ''),
  }
}

// ---- Items ----

const BULLET = /^\s*(?:[-*•‣◦▪–—+]|\(?\d{1,2}[.)]|\(?[a-z]\))\s+/
const ABBREVIATIONS = new Set('e.g i.e etc dr mr mrs ms prof st inc co ltd jr sr vs no approx u.s u.k mt'.split(' '))
const AWARD = /\b(?:award(?:s|ed)?|prize|medal|winner|won|shortlisted|finalist|honou?r(?:ed)?|accredited|accreditation)\b/i

function readField(value: string | undefined): Item[] {
  const pieces: string[] = []
  const seen = new Set<string>()
  for (const line of (value ?? '').split(/\r?\n/)) {
    if (/^\s*#/.test(line)) continue // a markdown heading carries no fact of its own
    const text = line.replace(BULLET, '').replace(/\*+/g, '').replace(/\s+/g, ' ').trim()
    // A line that only introduces the list after it ("Our work includes:") says nothing by itself.
    if (text === '' || /:$/.test(text)) continue
    // "…since 2019, and 11 PhD students trained": a new figure after ", and" starts a statement of its own.
    const parts = (text.includes(';') ? text.split(';') : splitSentences(text)).flatMap((part) => part.split(/,\s+and\s+(?=\d)/))
    for (const part of parts) {
      const piece = part
        .trim()
        .replace(/^(?:and|or)\s+/i, '')
        .replace(/[\s.;,:]+$/, '')
      if (!/\p{L}{2}/u.test(piece) || seen.has(piece.toLowerCase())) continue
      seen.add(piece.toLowerCase())
      pieces.push(piece)
      if (pieces.length === MAX_ITEMS) return pieces.map(toItem)
    }
  }
  return pieces.map(toItem)
}

function toItem(piece: string): Item {
  const text = cutAtSpace(shortenText(shortenRuns(piece), MAX_ITEM_WORDS), MAX_ITEM_CHARS).replace(/[\s.;,:…]+$/, '')
  const tokens = tag(text)
  return { text, tokens, shape: shapeOf(tokens), figure: /\d/.test(text), award: AWARD.test(text) }
}

/** Whom and where are described, not narrated: an item there is a phrase unless a pronoun opens it ("We serve …"). */
function asDescription(item: Item): Item {
  return item.tokens[0]?.pos === 'PRON' ? item : { ...item, shape: 'phrase' }
}

const RELATIVE = new Set(['who', 'that', 'which', 'whose', 'where', 'whom'])
const SUBJECT_PRONOUNS = new Set(['we', 'they', 'it', 'i', 'you', 'he', 'she'])

export function isVerb(token: Token | undefined): boolean {
  return token !== undefined && (token.pos === 'VERB' || token.pos === 'AUX')
}

/** Where the item's main verb is: the first verb that is not in a relative clause, an infinitive or a modifier. */
export function mainVerb(tokens: Token[]): number {
  let relative = false
  for (const [index, token] of tokens.entries()) {
    const word = token.text.toLowerCase()
    if (RELATIVE.has(word) && index > 0) relative = true
    if (token.text === ',') relative = false
    if (relative || !isVerb(token) || !isFinite(tokens, index)) continue
    return index
  }
  return -1
}

/** Whether the verb at `index` can head the item's clause, by its neighbours and its agreement. */
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

function shapeOf(tokens: Token[]): Shape {
  const first = tokens[0]
  if (!first) return 'phrase'
  if (first.text.toLowerCase() === 'to' && isVerb(tokens[1])) return 'infinitive'
  if (isGerundStart(tokens)) return 'headless'
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
  const participle =
    token.pos === 'VERB' &&
    isParticiple(token) &&
    !subject.some((word) => SUBJECT_PRONOUNS.has(word.text.toLowerCase())) &&
    (!next || next.pos === 'PUNCT' || next.pos === 'ADP' || next.pos === 'ADV' || next.pos === 'SCONJ')
  return participle ? 'participle' : 'clause'
}

function isGerundStart(tokens: Token[]): boolean {
  const first = tokens[0]
  if (!/^[a-z]+ing$/i.test(first.text) || /^(?:during|bring|sing|thing|spring|string|king|ring|wing|morning|evening)$/i.test(first.text))
    return false
  if (first.pos === 'VERB') return true
  // "drilling and repairing boreholes": a noun-tagged first word joined to a verb in -ing.
  if (tokens[1]?.pos === 'CCONJ' && tokens[2]?.pos === 'VERB' && /ing$/i.test(tokens[2].text)) return true
  // "training village committees to maintain them" takes an object; "reading volunteers from …" is a noun.
  const object =
    ['DET', 'NUM', 'PRON'].includes(tokens[1]?.pos ?? '') || (tokens[1]?.pos === 'NOUN' && !NOMINAL_ING.has(first.text.toLowerCase()))
  return (
    object ||
    (tokens[1]?.pos === 'NOUN' && tokens.some((token, index) => token.text.toLowerCase() === 'to' && tokens[index + 1]?.pos === 'VERB'))
  )
}

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

// ---- Splitting sentences (linear: every pattern that ends in a run starts only where the run starts) ----

const SENTENCE_END = /(?<![.!?])[.!?]+["'”’)\]]*\s+(?=["'“‘([]?[A-Z0-9])/g

function splitSentences(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  for (const match of text.matchAll(SENTENCE_END)) {
    const before = text.slice(Math.max(start, text.lastIndexOf(' ', match.index - 1) + 1), match.index)
    if (match[0].startsWith('.') && isAbbreviation(before)) continue
    sentences.push(text.slice(start, match.index + match[0].trimEnd().length))
    start = match.index + match[0].length
  }
  sentences.push(text.slice(start))
  return sentences
}

function isAbbreviation(word: string): boolean {
  const bare = word.toLowerCase().replace(/^[("'“‘]+/, '')
  return ABBREVIATIONS.has(bare) || /^[a-z]$/.test(bare)
}

const DANGLING_WORDS = new Set('and or but the a an of to in for with by on at from'.split(' '))

/** At most `maxWords` words, ending at a comma or semicolon in the second half where there is one. */
/** `text` cut to at most `maxChars`, at the last space before it. */
export function cutAtSpace(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const cut = text.slice(0, maxChars)
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))
}

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
  return kept.join(' ').replace(/[\s,;:–—-]+$/, '')
}

// ---- The organisation ----

function kindOf(name: string, text: string): Kind {
  if (/\b(?:co-?op(?:erative)?|coop)\b/i.test(name)) return 'co-operative'
  if (/\b(?:lab|laboratory|research|institute|observatory|unit)\b/i.test(name)) return 'research'
  if (/\b(?:school|academy|college|nursery|kindergarten)\b/i.test(name)) return 'school'
  if (/\b(?:theatre|theater|orchestra|choir|gallery|museum|arts?|dance|opera|festival|ensemble|studio|circus|film)\b/i.test(name))
    return 'arts'
  if (/\b(?:ltd|limited|cic|llc|inc|roasters?|social enterprise)\b/i.test(name) || /\b(?:sells?|sold|sales|customers)\b/i.test(text))
    return 'enterprise'
  return 'charity'
}

const ORGANISATION_NOUNS = new Set(
  'bank lab laboratory trust project school academy college alliance foundation charity network centre center collective co-operative cooperative theatre theater orchestra choir company ensemble gallery museum festival institute partnership society association club enterprise initiative clinic kitchen farm studio unit hub library'.split(
    ' ',
  ),
)
const KIND_DESCRIPTORS: Record<Kind, string> = {
  research: 'the research group',
  school: 'the school',
  'co-operative': 'the co-operative',
  arts: 'the company',
  enterprise: 'the enterprise',
  charity: 'the charity',
}

function descriptorOf(name: string | null, kind: Kind): string {
  const words = name?.toLowerCase().split(/\s+/) ?? []
  const last = words.at(-1) ?? ''
  if (last === 'bank' && words.at(-2) === 'food') return 'the food bank'
  return ORGANISATION_NOUNS.has(last) ? `the ${last}` : KIND_DESCRIPTORS[kind]
}

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
  const url = (website?.trim().split(/\s+/)[0] ?? '').replace(/[/.,;:]+$/, '')
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
