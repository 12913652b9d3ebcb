import { trimEndMatching } from '~/shared/text'
import { isEnglishWord } from '~/server/narratives/claims.server'
import { isParticiple, isVerb, mainVerb } from '~/server/generation/drafter/reading.server'
import { hasVerb, probe, tag, untag } from '~/server/language/tagger.server'
import type { Item, Subject } from '~/server/generation/drafter/contract.server'
import type { Token } from '~/server/language/tagger.server'

// Each item becomes a sentence of its own (docs/decisions/021): one item's words never modify another's.

export function weSubject(): Subject {
  return { we: true, start: 'We', mid: 'we', possessive: 'Our' }
}

export function theySubject(label: string, apostrophe = '’'): Subject {
  const start = label.charAt(0).toUpperCase() + label.slice(1)
  return { we: false, start, mid: nameInside(label), possessive: `${start}${/s$/.test(start) ? apostrophe : `${apostrophe}s`}` }
}

export function nameInside(name: string): string {
  return /^The\s+\p{Lu}/u.test(name) ? `t${name.slice(1)}` : name
}

/** How an item without a subject is told: "We sell …" (present), "We trained 620 agents" (past), "620 agents were trained" (passive). */
export type Telling = 'present' | 'past' | 'passive'

/** What is done to an organisation, never by it: "Worked with 30 schools" is no passive, "Founded in 2009" is. */
const ORGANISATION_PASSIVE =
  /^(?:founded|established|registered|incorporated|set up|based|located|affiliated|accredited|listed|formed|constituted|chartered)\s+(?:in|on|as|at|by|to|with|since|under)\b/i

/** The item as a sentence about `subject`; a phrase is given the verb that `frame` writes around it. */
export function itemSentence(
  item: Item,
  subject: Subject,
  frame: (phrase: string, item: Item) => string,
  telling: Telling = 'passive',
): string {
  const written = writeItem(item, subject, frame, telling)
  const sentence = item.named ? namedSentence(item, written, subject, telling) : written
  // A clause, or a programme told by its name, is told as written: "Its work includes" before it would glue two clauses.
  if (item.named || item.shape === 'clause' || hasVerb(sentence)) return sentence
  // The tagger reads no verb in it ("The alliance drills and repairs boreholes"): say it with one it reads.
  const work = finish(`${subject.possessive} work includes ${lowerFirst(item.text)}`)
  return hasVerb(work) ? work : finish(`Part of the work is ${lowerFirst(item.text)}`)
}

/** "Paid Pathways: a 26-week traineeship …" → "Paid Pathways is a 26-week traineeship …": the colon becomes the verb it stood for. */
function namedSentence(item: Item, sentence: string, subject: Subject, telling: Telling): string {
  const colon = item.tokens.findIndex((token) => token.text === ':')
  const described = item.tokens.slice(colon + 1)
  const at = sentence.indexOf(': ')
  const first = described[0]
  if (!first || at < 1) return sentence
  const name = sentence.slice(0, at)
  const told = sentence.slice(at + 2)
  const words = name.split(' ')
  // "Six Chairs", "Walk and Talk": a programme's own name; "Shared plots", "Crisis refuge": a thing's.
  const proper = words.every((word) => /^\p{Lu}/u.test(word) || NAME_LINKS.has(word))
  // "Cooking classes", "Shared plots" are many things; a programme's name is one, plural or not ("First Steps offers").
  const many = /^\p{Ll}+s$/u.test(words.at(-1) ?? '') && !/ss$/.test(words.at(-1) ?? '')
  // "34 raised beds rented to members": a participle describes; "volunteers drop shares at the door" tells.
  if (tellsSomething(described)) {
    if (telling !== 'present') return sentence
    if (proper) return `${subject.start} ${subject.we ? 'run' : 'runs'} ${name}: ${told}`
    // "Furniture program: families referred by a caseworker visit …": the programme is how it happens.
    return `Through ${subject.we ? 'our' : 'its'} ${lowerFirst(name)}, ${told}`
  }
  // "mentoring for young people", "paid training", "free weekly classes" are things too, whatever the tagger says.
  const thing = ['DET', 'NUM', 'ADJ', 'NOUN'].includes(first.pos) || isParticiple(first) || /^(?:\p{L}{2,}ing|free)$/iu.test(first.text)
  if (!thing) return sentence
  const single = /^(?:a|an|one|the)$/i.test(first.text)
  // "Drop-in lounge: open weekdays 9 to 4" says how it is; "Laundry van: two washers and two dryers" what it has.
  const how = PREDICATIVE.has(first.text.toLowerCase())
  const verb = how ? (many ? 'are' : 'is') : many ? 'are' : single ? 'is' : first.pos === 'NUM' ? 'has' : 'offers'
  // "Old Hands & New Makers: each spring, …" says when, not what it offers.
  if (verb === 'offers' && first.pos === 'DET') return sentence
  // "Crisis refuge: an eight-bed refuge …" names a thing, not a programme: "The crisis refuge is …".
  const opening = proper ? name : `The ${lowerFirst(name)}`
  return `${opening} ${verb} ${told}`
}

/** A clause that tells ("fees are €60 a term"): a verb soon after its subject, outside a clause that says which ("women who …"). */
function tellsSomething(tokens: Token[]): boolean {
  let aside = false
  let gerund = false
  for (const [index, token] of tokens.slice(0, CLAUSE_VERB_WITHIN).entries()) {
    const previous = tokens[index - 1]
    // "helping refugees bring their families": a bare verb after a gerund is the gerund's, not the description's.
    const bare = gerund && token.text.toLowerCase() === token.lemma
    if (isVerb(token) && /ing$/i.test(token.text)) gerund = true
    if (SUBORDINATE.has(token.text.toLowerCase())) aside = true
    else if (token.text === ',') aside = gerund = false
    else if (!aside && !bare && tells(token, previous) && subjectEnds(previous)) return true
  }
  return false
}

/** A verb of the present that tells; a plural's "volunteers drop shares" too, which the tagger reads as nouns. */
function tells(token: Token, previous: Token | undefined): boolean {
  if (/(?:ing|ed)$/i.test(token.text)) return false
  // "volunteers put out six chairs": a base form is no participle, though "put" can be one.
  if (isVerb(token)) return token.text.toLowerCase() === token.lemma || !isParticiple(token)
  return token.pos === 'NOUN' && /[^s]s$/i.test(previous?.text ?? '') && probe(`they ${token.text.toLowerCase()} it`, 1)?.pos === 'VERB'
}

/** How far into a description its verb may come: "four times a year all its matches come together". */
const CLAUSE_VERB_WITHIN = 16

function subjectEnds(token: Token | undefined): boolean {
  return token !== undefined && ['NOUN', 'PROPN', 'PRON', 'NUM'].includes(token.pos) && token.text.toLowerCase() !== 'to'
}

const SUBORDINATE = new Set(['who', 'that', 'which', 'where', 'whom', 'whose', 'when', 'so', 'if', 'because', 'while', 'until'])

const PREDICATIVE = new Set(['open', 'available', 'closed', 'held', 'run', 'based'])

const NAME_LINKS = new Set(['and', 'of', 'the', 'a', 'for', 'to', '&', 'in', 'on'])

function writeItem(item: Item, subject: Subject, frame: (phrase: string, item: Item) => string, telling: Telling): string {
  const tokens = subject.we ? item.tokens : intoThirdPerson(item.tokens, subject)
  const text = subject.we ? item.text : untag(tokens)
  if (item.shape === 'phrase' && CHANGE.test(text))
    return finish(text.replace(CHANGE, (change) => ` ${pluralSubject(tokens) ? 'were' : 'was'}${change}`))
  // "Founded in 2009": the organisation's own passive, which no frame of the voice's fits ("our record includes founded …").
  if (item.shape === 'phrase' && ORGANISATION_PASSIVE.test(text))
    return finish(`${subject.start} ${subject.we ? 'were' : 'was'} ${lowerFirst(text)}`)
  switch (item.shape) {
    case 'clause':
      return finish(text)
    case 'participle':
      return finish(
        telling === 'passive' || (telling === 'past' && !OWN_ACTS.has(tokens[mainVerb(tokens)].lemma.toLowerCase()))
          ? withAuxiliary(tokens)
          : active(tokens, subject, telling),
      )
    case 'headless':
      return finish(`${subject.start} ${untag(conjugated(item.tokens, subject.we))}`)
    case 'infinitive':
      return finish(`${subject.start} ${subject.we ? 'aim' : 'aims'} ${lowerFirst(item.text)}`)
    case 'phrase':
      return finish(frame(item.keepCase ? text : lowerFirst(text), item))
  }
}

/** "620 women agents trained, earning $95 a month" → "We trained 620 women agents, who earn $95 a month"; "since" takes the perfect. */
function active(tokens: Token[], subject: Subject, telling: 'present' | 'past'): string {
  const verb = mainVerb(tokens)
  const participle = tokens[verb]
  const object = tokens.slice(0, verb)
  while (object.at(-1)?.pos === 'PUNCT' && object.at(-1)?.text !== ')') object.pop()
  const rest = relativeFor(tokens.slice(verb + 1), object)
  const since = rest.some((token) => token.text.toLowerCase() === 'since')
  // The lemmatiser writes American: "organised" keeps its "s" in "organise".
  const lemma = /ised$/i.test(participle.text) ? participle.lemma.toLowerCase().replace(/ize$/, 'ise') : participle.lemma.toLowerCase()
  const verbText =
    telling === 'present'
      ? subject.we
        ? lemma
        : thirdPerson(lemma)
      : since
        ? `${subject.we ? 'have' : 'has'} ${participle.text.toLowerCase()}`
        : (PAST_TENSES[participle.text.toLowerCase()] ?? participle.text.toLowerCase())
  const head: Token[] = [
    { text: subject.start, pos: 'PRON', lemma: '', spaced: false },
    { text: verbText, pos: 'VERB', lemma, spaced: true },
  ]
  const [first, ...others] = object
  const objectTokens = first ? [{ ...first, text: lowerFirst(first.text), spaced: true }, ...others] : []
  return untag([...head, ...objectTokens, ...rest])
}

/** ", earning $95 a month" after "agents" → ", who earn $95 a month": the participle keeps its own subject. */
function relativeFor(tokens: Token[], object: Token[]): Token[] {
  const plural = pluralSubject(object)
  const pronoun = object.some((token) => PEOPLE.has(token.lemma.toLowerCase())) ? 'who' : 'which'
  return tokens.flatMap((token, index) => {
    const gerund = token.pos === 'VERB' && /ing$/i.test(token.text) && tokens[index - 1]?.text === ','
    if (!gerund) return [token]
    const verb = plural ? token.lemma : thirdPerson(token.lemma)
    return [
      { text: pronoun, pos: 'PRON', lemma: pronoun, spaced: true },
      { ...token, text: verb },
    ]
  })
}

const PEOPLE = new Set(
  'people person woman women man men child children kid agent student pupil volunteer member family household farmer worker trainee learner adult youth girl boy mother father parent resident teacher staff client patient participant graduate user customer refugee senior veteran'.split(
    ' ',
  ),
)

/** What an organisation does itself ("We trained 620 agents"); a result with any other verb was done by others. */
const OWN_ACTS = new Set(
  'serve train distribute deliver sell build plant provide enrol enroll coach tutor teach feed house install complete give lend publish host hold run support mentor screen treat recycle repair insulate map log collect raise fund make produce open launch create organise organize visit refer place employ hire equip restore rescue pay avoid save process answer record prepare cook pack supply stock grow harvest graduate certify divert prevent remove clean test inspect protect conserve reuse rehome'.split(
    ' ',
  ),
)

const PAST_TENSES: Record<string, string> = {
  grown: 'grew',
  given: 'gave',
  taken: 'took',
  written: 'wrote',
  seen: 'saw',
  done: 'did',
  shown: 'showed',
  known: 'knew',
  begun: 'began',
  chosen: 'chose',
  drawn: 'drew',
  driven: 'drove',
  eaten: 'ate',
  flown: 'flew',
  frozen: 'froze',
  hidden: 'hid',
  ridden: 'rode',
  spoken: 'spoke',
  thrown: 'threw',
  worn: 'wore',
  run: 'ran',
  become: 'became',
}

/** The verb a phrase of programmes is given, by what its head noun names. */
export function programmeVerb(item: Item, we: boolean): string {
  const head = headNoun(item.tokens)
  const lemma = head?.lemma ?? ''
  const verb =
    OFFERED.has(lemma) || /ing$/.test(lemma) || /ing$/.test(head?.text ?? '')
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
  for (const [index, token] of tokens.entries()) {
    // "fiber-to-fiber recycling plant": a preposition inside a hyphened word does not end the phrase.
    const hyphened = (tokens[index - 1]?.text === '-' && !token.spaced) || (tokens[index + 1]?.text === '-' && !tokens[index + 1].spaced)
    if (hyphened) continue
    if (token.pos === 'ADP' || (token.pos === 'PUNCT' && token.text !== '-') || (token.pos === 'PRON' && head)) break
    if (token.pos === 'NOUN' || token.pos === 'PROPN' || (token.pos === 'VERB' && (head || /ing$/.test(token.text)))) head = token
  }
  return head
}

function subjectName(tokens: Token[]): string | null {
  const verb = mainVerb(tokens)
  const aside = tokens.findIndex((token) => token.text === '(' || token.text === ',')
  const subject = tokens.slice(0, aside > 0 && aside < verb ? aside : verb)
  if (verb <= 0 || subject.length > 6 || (!/^(?:our|the)$/i.test(subject[0].text) && subject[0].pos !== 'PROPN')) return null
  // "Students get free lessons": a word capitalised only because it opens the sentence names no programme.
  if (subject.length === 1 && isEnglishWord(subject[0].text)) return null
  if (
    !subject.some((token) => token.pos === 'NOUN' || token.pos === 'PROPN') ||
    subject.some((token) => token.pos === 'NUM' || token.pos === 'ADP')
  )
    return null
  const text = untag(subject).replace(/^(?:our|the)\s+/i, '')
  return /^\p{Lu}/u.test(text) && subject.slice(1).every((token) => token.pos === 'PROPN') ? `the ${text}` : `the ${lowerFirst(text)}`
}

/** "Name: what it does" is called by its name; several capitalised words are a proper name, others take "the". */
function labelOf(item: Item): string | null {
  const label = /^([^:;.!?]{2,50}):\s+\S/u.exec(item.text)?.[1].trim()
  if (!label || label.split(/\s+/).length > 6) return null
  // "The café" has its article; "Pay what you can", "Walk and Talk" name what people do: said as written.
  if (/^the\s/i.test(label)) return lowerFirst(label)
  if (/^\p{Lu}/u.test(label) && isImperative(label)) return label
  const words = label.split(/\s+/)
  // "Reconnect", "StartSmart": one word that is no common noun is a name.
  const oneName =
    words.length === 1 && /^\p{Lu}/u.test(label) && (/\p{Ll}\p{Lu}/u.test(label) || tag(label.toLowerCase())[0]?.pos !== 'NOUN')
  const proper = oneName || (words.length > 1 && words.filter((word) => /^\p{Lu}/u.test(word)).length >= 2)
  if (!proper) return `the ${lowerFirst(label)}`
  return words.length > 1 && COUNTED_HEADS.test(words.at(-1)!) ? `the ${label}` : label
}

/** The things a programme's name may end on that take "the": "the Shopping Bus", but "Next Steps", "Bake It Work". */
const COUNTED_HEADS =
  /^(?:bus|scheme|programme|program|project|service|club|group|line|hub|bank|café|cafe|garden|library|shed|fund|network|team|centre|center|kitchen|table|house|houses|shop|store|van|walk|trail|festival|award|awards|academy|school|clinic|lab|studio|campaign|partnership|circle|circles|course)$/i

/** "pay", "walk": a verb in its plain form, as a name that tells people what to do opens ("Pay what you can"). */
function isImperative(label: string): boolean {
  const [first, ...rest] = tag(label.toLowerCase())
  const verb = probe(`we ${first?.text} it`, 1)
  return isVerb(verb) && verb?.lemma.toLowerCase() === first?.text && rest.some((token) => isVerb(token) || token.pos === 'PRON')
}

/** A short name for an item, for lists: "weekend meal packs", "a mobile pantry", "open flood-risk maps". */
export function shortName(item: Item): string | null {
  const named = labelOf(item)
  if (named) return named
  const tokens = item.tokens
  let from = 0
  // A programme that is its sentence's subject is named by it; otherwise only what the organisation does ("We run 14 pantries").
  if (item.shape === 'clause' && tokens[0]?.text.toLowerCase() !== 'we') return subjectName(tokens)
  if (item.shape === 'clause' || item.shape === 'headless') {
    const verb = item.shape === 'headless' ? 0 : mainVerb(tokens)
    if (verb === -1) return null
    from = verb + 1
    while (tokens[from] && (tokens[from].pos === 'ADV' || tokens[from].pos === 'PART')) from++
  } else if (item.shape !== 'phrase') return null
  const kept: Token[] = []
  const rest = tokens.slice(from)
  for (const [index, token] of rest.entries()) {
    const previous = kept.at(-1)
    // A hyphened word ("drop-in", "one-to-one") stands before the next word as an adjective would.
    const previousPos = previous && kept.at(-2)?.text === '-' && !previous.spaced ? 'ADJ' : previous?.pos
    // "meal packs", "bulk buying": a noun read as a verb after a noun is part of the name.
    const compound =
      token.pos === 'VERB' &&
      (previousPos === 'NOUN' || previousPos === 'ADJ') &&
      (/(?:s|ing)$/.test(token.text) || ['ADP', 'PUNCT', undefined].includes(rest[index + 1]?.pos))
    const hyphened = (previous?.text === '-' && !token.spaced) || (token.text === '-' && !token.spaced && kept.length > 0)
    // "evening and weekend courses" share their noun; "training and stock for …" are two things.
    const shared =
      token.pos === 'CCONJ' &&
      ['NOUN', 'ADJ'].includes(previous?.pos ?? '') &&
      ['NOUN', 'ADJ'].includes(rest[index + 1]?.pos ?? '') &&
      rest[index + 2]?.pos === 'NOUN'
    if (compound || hyphened || shared) {
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
      (token.pos === 'PRON' && kept.length > 0) ||
      token.pos === 'PART' ||
      ((token.pos === 'ADJ' || token.pos === 'DET') && kept.some((other) => other.pos === 'NOUN'))
    )
      break
    kept.push(token)
  }
  // "32 partner pantry sites" is named "the partner pantry sites"; "one-to-one coaching" keeps its "one".
  while (kept[0]?.pos === 'NUM' && !(kept[1]?.text === '-' && !kept[1].spaced)) kept.shift()
  const nouns = kept.filter((token) => token.pos === 'NOUN' || token.pos === 'PROPN' || token.pos === 'VERB')
  if (nouns.length === 0 || untag(kept).split(/\s+/).length > 6) return null
  // A name is named as it is ("ShoreWatch"), anything else takes "the"; the tagger reads any capitalised first word as a name.
  const text = untag(kept).replace(/^(?:our|their|its|a|an|the)\s+/i, '')
  const proper = kept.every((token) => token.pos === 'PROPN' || token.text === '-') && lowerFirst(text) === text
  return proper ? text : `the ${lowerFirst(text)}`
}

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
  // After "we" and its verb: a later verb in the same list agrees with the organisation too.
  let listed = false
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]
    const word = token.text.toLowerCase()
    const replace = (text: string) => out.push({ ...token, text: index === 0 ? capitalise(text) : text })
    if (word === 'we') {
      replace(named ? 'it' : index === 0 ? subject.start : subject.mid)
      named = true
      let next = index + 1
      while (tokens[next]?.pos === 'ADV') out.push(tokens[next++])
      const verb = tokens[next]
      if (verb && AUXILIARIES[verb.text.toLowerCase()]) {
        out.push({ ...verb, text: AUXILIARIES[verb.text.toLowerCase()], spaced: true })
        index = next
      } else if (verb && verb.pos === 'VERB' && verb.text.toLowerCase() === verb.lemma) {
        out.push({ ...verb, text: thirdPerson(verb.lemma) })
        index = next
        while (tokens[index + 1]?.pos === 'CCONJ' && isBaseVerb(tokens[index + 2])) {
          out.push(tokens[index + 1], { ...tokens[index + 2], text: thirdPerson(tokens[index + 2].lemma) })
          index += 2
        }
        listed = true
      } else index = next - 1
    } else if (listed && isListedVerb(tokens, index)) {
      out.push({ ...token, text: thirdPerson(token.lemma) })
    } else if (token.text === '.' || token.text === ';') {
      listed = false
      out.push(token)
    } else if (named && (word === 'and' || word === 'but') && AUXILIARIES[tokens[index + 1]?.text.toLowerCase() ?? '']) {
      // "We have been running since 1988 and are funded by …": the second verb of the same subject agrees too.
      out.push(token, { ...tokens[index + 1], text: AUXILIARIES[tokens[index + 1].text.toLowerCase()] })
      index++
    } else if (word === 'our') replace(index === 0 ? subject.possessive : 'its')
    // "612 of them were new to us" → "new to the club": a sentence never ends on a pronoun that could mean anything.
    else if (word === 'us') replace(!tokens[index + 1] || tokens[index + 1].pos === 'PUNCT' ? (subject.object ?? subject.mid) : 'it')
    else if (word === 'ours') replace('its own')
    else if (word === 'ourselves') replace('itself')
    else out.push(token)
  }
  return out
}

function isBaseVerb(token: Token | undefined): boolean {
  return (
    token !== undefined &&
    (token.pos === 'VERB' || token.pos === 'NOUN') &&
    token.text.toLowerCase() === token.lemma &&
    probe(`we ${token.text}`, 1)?.pos === 'VERB'
  )
}

export function inPerson(text: string, subject: Subject): string {
  return subject.we ? text : untag(intoThirdPerson(tag(text), subject))
}

/** Verbs whose base form ends in "ed" ("shed", "embed"): no past tense, so they are conjugated. */
const BASE_IN_ED = new Set(['shed', 'embed', 'wed', 'shred', 'bed'])

/** A verb's base after a list's comma or "and", with its object after it: "…, publish it, and make submissions". */
function isListedVerb(tokens: Token[], index: number): boolean {
  const before = tokens[index - 1]
  const after = tokens[index + 1]
  return (
    isBaseVerb(tokens[index]) &&
    /^\p{Ll}/u.test(tokens[index].text) &&
    (before?.text === ',' || before?.pos === 'CCONJ') &&
    after !== undefined &&
    ['DET', 'PRON', 'NOUN', 'PROPN', 'ADJ', 'NUM', 'ADP'].includes(after.pos)
  )
}

/** "drilling and repairing boreholes" → "drill and repair boreholes"; "Run 14 pantries" → "runs 14 pantries". */
export function conjugated(tokens: Token[], we: boolean): Token[] {
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
  const verb = probe(`They are ${token.text.toLowerCase()} it`, 2)
  return verb && verb.lemma !== verb.text ? verb.lemma : token.text.toLowerCase().replace(/ing$/, '')
}

export function thirdPerson(verb: string): string {
  const [first, ...rest] = verb.split(' ')
  // "We redistributed 412 tonnes": a past tense the lemmatiser did not know is no base to conjugate.
  if (/[^e]ed$/.test(first) && !BASE_IN_ED.has(first)) return verb
  const irregular: Record<string, string> = { be: 'is', have: 'has', do: 'does', go: 'goes' }
  const conjugated =
    irregular[first] ??
    (/(?:s|x|z|ch|sh|o)$/.test(first) ? `${first}es` : /[^aeiou]y$/.test(first) ? `${first.slice(0, -1)}ies` : `${first}s`)
  return [conjugated, ...rest].join(' ')
}

/** "waterborne illness down by 40%": a change stated without its verb. */
const CHANGE = /\s(?:up|down)(?=\s+(?:by|from|to)\s)/i

/** Whether a subject is plural, by its head: "illness in partner villages" is one illness. */
function pluralSubject(tokens: Token[]): boolean {
  const preposition = tokens.findIndex((token, index) => index > 0 && token.pos === 'ADP')
  const subject = preposition === -1 ? tokens : tokens.slice(0, preposition)
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

/** A phrase's first word lower-cased when it is an ordinary English word that starts no name. */
export function lowerFirst(text: string): string {
  const match = /^(\p{Lu}[\p{Ll}'’-]*)(?![\p{L}\p{N}])(\s+\S+)?/u.exec(text)
  if (!match) return text
  const [, word, next = ''] = match
  const startsName = /^\s+(?:\p{Lu}|of\s+\p{Lu})/u.test(next) || /^\s+\p{Lu}/u.test(next)
  if (startsName && word !== 'The') return text
  return isEnglishWord(word) && !PROPER_WORDS.has(word) ? word.toLowerCase() + text.slice(word.length) : text
}

/** Words that are English words in the list but keep their capital: languages, peoples, days and months. */
const PROPER_WORDS = new Set(
  'English Welsh Scottish Irish British American Spanish French German Italian Portuguese Arabic Chinese Mandarin Cantonese Somali Polish Urdu Hindi Bengali Punjabi Swahili Kurdish Turkish Russian Ukrainian Vietnamese Korean Japanese African Asian European Latino Latina Hispanic Indigenous Aboriginal Black Native Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December'.split(
    ' ',
  ),
)

/** Only an all-lowercase first word is capitalised, so a name like "iPad" keeps its spelling. */
export function capitalise(text: string): string {
  return /^[a-z][a-z'’-]*(?=[\s,.;:!?]|$)/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text
}

export function finish(text: string): string {
  const trimmed = trimEndMatching(text.trim(), /[\s,;:–—-]/)
  const capitalised = capitalise(trimmed)
  return /[.!?…]["'”’)\]]*$/.test(capitalised) ? capitalised : `${capitalised}.`
}

const MASS_NOUNS = new Set(
  'help support advice food water training equipment housing transport care research education information guidance stock funding childcare insulation coaching tutoring mentoring counselling counseling therapy practice work lighting delivery outreach recycling repair maintenance testing screening'.split(
    ' ',
  ),
)

export function isPlural(item: Item): boolean {
  const head = headNoun(item.tokens)
  const first = item.tokens[0]
  if (first?.pos === 'NUM' && !/^(?:1|one)$/i.test(first.text)) return true
  return head !== undefined && head.pos !== 'PROPN' && !/ing$/i.test(head.text) && head.text.toLowerCase() !== head.lemma.toLowerCase()
}

/** "mobile pantry for rural towns" → "a mobile pantry for rural towns"; plurals and mass nouns stay bare. */
export function withArticle(phrase: string, item: Item): string {
  const first = item.tokens[0]
  const head = headNoun(item.tokens)
  if (!first || !head || /^\p{Lu}/u.test(phrase) || ['DET', 'NUM', 'PRON'].includes(first.pos)) return phrase
  const lemma = head.lemma.toLowerCase()
  if (head.text.toLowerCase() !== lemma || MASS_NOUNS.has(lemma) || /(?:ing|ics)$/.test(head.text.toLowerCase()) || head.pos === 'PROPN')
    return phrase
  return `${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`
}

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

export function joinAnd(parts: string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}

/** The first clause of a long phrase: "bring safe water to rural communities so that no child …" → up to "so that". */
export function core(text: string, minWords = 5): string {
  for (const match of text.matchAll(CORE_CUT)) {
    const head = text.slice(0, match.index).replace(/[\s,;]+(?:and|or|but)$/i, '')
    // "older people …, particularly those": a head that ends on a word that points on has lost what it points to.
    if (head.split(/\s+/).length >= minWords && !/\b(?:those|the|a|an|of|to|for|with)$/i.test(head)) return head
  }
  return text
}

/** Where a phrase's first clause ends; a relative clause ("adults who cannot read") or "by"/"through" ("affected by poverty") is kept. */
const CORE_CUT =
  /,?\s+(?:so that|so|in order to|especially|particularly|including|many of|and to)\s|,?\s+(?:by|through)\s(?=\p{L}+ing\b)/giu

// Where an item's first clause may end; a list is never cut short: ", and" ends a clause only when a clause follows.
const ITEM_CUT = /,\s+and\s|;\s|,\s+(?:which|who|with|while)\s|\s+(?:so that|especially|including)\s/g

/** The item's first clause, as an item of its own: a voice that tells it briefly leaves the rest out. */
export function briefItem(item: Item, minWords = 5): Item {
  for (const match of item.text.matchAll(ITEM_CUT)) {
    if (item.text.slice(0, match.index).split(/\s+/).length < minWords) continue
    const text = item.text.slice(0, match.index)
    if (/^,\s+and/.test(match[0])) {
      // "starts seeing him …, meets him at the gate, and stays in touch": the last of a list ends it, or it is no list.
      if (mainVerb(tag(item.text.slice(match.index + match[0].length))) === -1 || text.includes(',')) continue
    }
    const tokens = tag(text)
    // "More than 200 volunteer clinicians, including physicians, … give their time": a clause keeps its verb.
    if (item.shape !== 'phrase' && !tokens.some(isVerb) && item.tokens.some(isVerb)) continue
    return { ...item, text, tokens, shape: item.shape === 'phrase' ? 'phrase' : reshape(item, tokens) }
  }
  return item
}

function reshape(item: Item, tokens: Token[]): Item['shape'] {
  return item.shape === 'participle' && !tokens.some((token) => token.pos === 'VERB' && isParticiple(token)) ? 'phrase' : item.shape
}
