import type { Tone } from '~/shared/tones'
import type { Item, Reading } from '~/server/generation/drafter/reading.server'
import {
  itemSentence,
  joinAnd,
  programmeVerb,
  theySubject,
  weSubject,
  withArticle,
  type Subject,
} from '~/server/generation/drafter/clauses.server'

// The four voices (issue 14). Each chooses its person, its opening move, the order of what it says, its
// sentence shapes and its call to action, and writes the five paragraphs of SPEC.md's structure as
// ranked candidate sentences; drafter.server.ts keeps as many as 300-400 words allow.
// Every word written here is the voice's own: no digits, no capitalised word inside a sentence and no
// judgement of the work's quality, so every fact and name in a draft is the user's.

/** A sentence and how much it matters: 0 always, 1-3 facts and their framing, 4 and up padding. */
export type Candidate = { text: string; rank: number }
export type Paragraph = Candidate[]

export const PADDING_RANK = 4

/** What a voice writes from: the reading, and the phrases the composer derived from it. */
export type Context = {
  reading: Reading
  /** The organisation's name (or, without one, a descriptor) at its first mention in a paragraph. */
  name: string
  /** The mission's purpose as a verb phrase without "to" ("end hunger in Lane County"), if it has one. */
  purpose: string | null
  /** The purpose as a gerund phrase ("ending hunger in Lane County"). */
  purposing: string | null
  /** Short names of the programmes, for the ask ("weekend meal packs", "a mobile pantry"). */
  programmeNames: string[]
  contact: string | null
  /** Chooses one of several wordings, the same way every time for one organisation. */
  pick: (options: string[], slot: number) => string
}

const rank = (text: string, value: number): Candidate => ({ text, rank: value })
const pad = (texts: string[], from = PADDING_RANK): Candidate[] => texts.map((text, index) => rank(text, from + index))

/** Each item as its own sentence: the first of a field ranks above the rest. */
function items(list: Item[], subject: (index: number) => Subject, frame: (phrase: string, item: Item, subject: Subject, index: number) => string, first = 1): Candidate[] {
  return list.map((item, index) => rank(itemSentence(item, subject(index), (phrase) => frame(phrase, item, subject(index), index)), index === 0 ? first : first + 1))
}

function programmeFrame(phrase: string, item: Item, subject: Subject, index = 0): string {
  const who = index % 2 === 1 ? `${subject.we ? 'We' : 'It'} also` : subject.start
  return `${who} ${programmeVerb(item, subject.we)} ${withArticle(phrase, item)}`
}

/** A place phrase after a verb of working: "in Lane County", or the phrase's own preposition. */
function where(phrase: string): string {
  return /^(?:in|across|throughout|around|within|at|from|on|along|near)\s/i.test(phrase) ? phrase : `in ${phrase}`
}

function missionOpening(context: Context, subject: Subject, lead: (purpose: string) => string): Candidate[] {
  const [first, ...rest] = context.reading.mission
  const opening = context.purpose ? rank(lead(context.purpose), 0) : first ? rank(itemSentence(first, subject, (phrase) => `${subject.possessive} mission is ${phrase}`), 0) : null
  const others = items(context.purpose ? rest : rest, () => subject, (phrase) => `${subject.start} ${subject.we ? 'work' : 'works'} for ${phrase}`, 2)
  return [...(opening ? [opening] : []), ...others]
}

function they(context: Context) {
  const named = theySubject(context.name)
  const described = theySubject(context.reading.descriptor)
  return (index: number) => (index === 0 ? named : described)
}

function contactSentence(context: Context, write: (who: string) => string): Candidate[] {
  return context.contact ? [rank(write(context.contact), 0)] : []
}

function websiteSentence(context: Context, write: (url: string) => string): Candidate[] {
  return context.reading.website ? [rank(write(context.reading.website), 1)] : []
}

function asked(context: Context, write: (names: string) => string): Candidate[] {
  const names = context.programmeNames.slice(0, 3)
  return names.length > 0 ? [rank(write(joinAnd(names)), 2)] : []
}

// ---- Professional: third person, the mission first, a formal request ----

function professional(context: Context): Paragraph[] {
  const { reading, pick } = context
  const subject = they(context)
  const name = subject(0)
  const it = subject(1)
  return [
    [
      ...missionOpening(context, name, (purpose) => `${name.start} exists to ${purpose}.`),
      ...pad([
        pick(['This proposal sets out the need behind that aim, the work that answers it, the results so far and the support now sought.', 'What follows describes the need, the programmes that meet it, the results to date and the support now requested.'], 0),
      ]),
    ],
    [
      ...items(reading.audience, () => it, (phrase, _item, who, index) => (index === 0 ? `The need it answers lies with ${phrase}` : `${who.start} also works with ${phrase}`)),
      ...items(reading.places, () => it, (phrase, _item, who) => `${who.start} works ${where(phrase)}`),
      ...pad([
        pick(['That is the context for the programmes described next.', 'That need is the starting point for each of the programmes that follow.'], 1),
        'Meeting it calls for steady, long-term work rather than one-off projects.',
      ], PADDING_RANK + 1),
    ],
    [
      rank(pick([`To meet that need, ${name.mid} runs a focused set of programmes.`, `${name.start} meets that need through a small number of focused programmes.`], 2), 0),
      ...items(reading.programmes, (index) => (index === 0 ? it : it), programmeFrame),
      ...pad(['Together they make up the core of the work.', 'Fuller detail on each is available on request.'], PADDING_RANK + 2),
    ],
    [
      rank(pick(['The results to date can be stated in figures.', 'The results so far are best told in figures.'], 3), 0),
      ...items(reading.results, () => it, (phrase, item) => `Its record also includes ${withArticle(phrase, item)}`),
      ...items(reading.awards, () => name, (phrase, _item, who) => awardSentence(phrase, who), 2),
      rank(`The case for investing in ${name.mid} rests on programmes that are already running and results that are already recorded.`, 3),
      ...pad(['Those results are the basis on which further support is requested.'], PADDING_RANK + 1),
    ],
    [
      ...asked(context, (names) => `${name.start} is seeking funding to sustain and extend ${names}.`),
      ...contactSentence(context, (who) => `To discuss support for this work, please contact ${who}.`),
      ...websiteSentence(context, (url) => `Further information is available at ${url}.`),
      ...pad([
        pick(['We would welcome the opportunity to discuss a partnership in more detail.', 'We would be glad to provide any further information a funder needs.'], 4),
        'A conversation is the best next step.',
      ], PADDING_RANK),
    ],
  ]
}

// ---- Conversational: "we" and "you", the people first, a friendly invitation ----

function conversational(context: Context): Paragraph[] {
  const { reading, pick } = context
  const we = weSubject()
  const opening = reading.audience.length > 0
    ? [
        ...items(reading.audience.slice(0, 1), () => we, (phrase) => `${pick(['Let us start with the people', 'First, the people'], 0)} we’re here for: ${phrase}`, 0),
        ...missionOpening(context, we, (purpose) => `Everything we do at ${context.name === reading.descriptor ? 'our place' : context.name} comes back to one aim, which is to ${purpose}.`),
      ]
    : missionOpening(context, we, (purpose) => `At ${context.name}, we’re here to ${purpose}.`)
  return [
    [...opening, ...pad(["That's the short version, and the rest of this is the longer one.", 'It’s a simple aim to say, and it takes a lot of people to get right.'])],
    [
      ...items(reading.audience.slice(1), () => we, (phrase) => `We also work with ${phrase}`),
      ...items(reading.places, () => we, (phrase) => `You’ll find us ${where(phrase)}`),
      ...pad(['If you live there, you may already know someone we work with.', "Nobody should have to face that on their own, and that's where we come in."], PADDING_RANK + 1),
    ],
    [
      rank(pick(['Here’s what that looks like day to day.', 'So what do we actually do?'], 1), 0),
      ...items(reading.programmes, () => we, programmeFrame),
      ...pad(['We try to keep every part of it practical, friendly and easy to get to.', 'And we’re always asking how we can do it a little better.'], PADDING_RANK + 2),
    ],
    [
      rank('So what has changed?', 0),
      ...items(reading.results, () => we, (phrase, item) => `Add to that ${withArticle(phrase, item)}`),
      ...items(reading.awards, () => we, (phrase, _item, who) => awardSentence(phrase, who), 2),
      rank('None of this is starting from scratch, which is why your help goes straight into work that already runs.', 3),
      ...pad(["Every one of those numbers is a person, and that's what keeps us going."], PADDING_RANK),
    ],
    [
      ...asked(context, (names) => `We’re looking for support to keep ${names} going.`),
      ...contactSentence(context, (who) => `If you’d like to talk about helping, get in touch with ${who}.`),
      ...websiteSentence(context, (url) => `You can also find out more at ${url}.`),
      ...pad([pick(["We'd love to hear from you.", "We'd be really glad to hear from you."], 2), 'Whether you give, volunteer or simply pass this on, you’ll be part of it.'], PADDING_RANK),
    ],
  ]
}

// ---- Passionate: "we", a figure first, an urgent call ----

function passionate(context: Context): Paragraph[] {
  const { reading, pick } = context
  const we = weSubject()
  const [headline, ...results] = [...reading.results.filter((item) => item.figure), ...reading.results.filter((item) => !item.figure)]
  const resultFrame = (phrase: string, item: Item) => `And there is more to count, with ${withArticle(phrase, item)}`
  return [
    [
      ...(headline ? items([headline], () => we, resultFrame, 0) : []),
      ...missionOpening(context, we, (purpose) => `${headline ? 'Behind every figure is one purpose' : 'We have one purpose'}: we exist to ${purpose}.`),
      ...pad(['This is not simply what we do; it is why we exist.', pick(['And it is a purpose that cannot wait.', 'It is a purpose that will not wait for better times.'], 0)]),
    ],
    [
      ...items(reading.audience, () => we, (phrase) => `We stand with ${phrase}`),
      ...items(reading.places, () => we, (phrase) => `We work ${where(phrase)}, and this is where our hearts are`),
      ...pad(['Every person deserves the chance to thrive, and too many are still waiting for it.', 'Their needs are real, and they cannot be put off for another day.'], PADDING_RANK + 1),
    ],
    [
      rank(pick(['We answer that need with action, not just words.', 'So we act.'], 1), 0),
      ...items(reading.programmes, () => we, programmeFrame),
      ...pad(['Each of these is an act of hope, offered with care.', 'This is compassion made practical, day after day.'], PADDING_RANK + 2),
    ],
    [
      rank('And the change is real.', 0),
      ...items(results, () => we, resultFrame),
      ...items(reading.awards, () => we, (phrase, _item, who) => awardSentence(phrase, who), 2),
      rank('This is not a plan on paper; it is work already under way, with results to show for it.', 3),
      ...pad(['Each result stands for a real person and a real step forward.'], PADDING_RANK),
    ],
    [
      ...asked(context, (names) => `We need your support to keep ${names} going.`),
      rank(`Now is the time to stand with ${context.name}.`, 0),
      ...contactSentence(context, (who) => `Reach out to ${who} today.`),
      ...websiteSentence(context, (url) => `Discover more and get involved at ${url}.`),
      ...pad([pick(['Together, we are stronger than any challenge in front of us.', 'Join us, and let us make this change last.'], 2), 'Every gift, every hour and every voice brings that future closer.'], PADDING_RANK),
    ],
  ]
}

// ---- Academic: third person, the need first, a measured request ----

function academic(context: Context): Paragraph[] {
  const { reading, pick } = context
  const subject = they(context)
  const name = subject(0)
  const it = subject(1)
  const research = reading.kind === 'research'
  return [
    [
      ...missionOpening(context, name, () => `The problem addressed by ${name.mid} is one of ${context.purposing}.`),
      ...pad([pick(['The account that follows considers the context of need, the design of the work, the evidence of its effects and the case for continued support.', 'This account describes the setting, the activities undertaken, the outcomes reported and the rationale for further support.'], 0)]),
    ],
    [
      ...items(reading.audience, () => it, (phrase) => `${research ? 'The work is directed at' : 'The intended beneficiaries are'} ${phrase}`),
      ...items(reading.places, () => it, (phrase) => (/^(?:in|across|throughout|around|within|at)\s/i.test(phrase) ? `The work takes place ${phrase}` : `The geographical setting is ${phrase}`)),
      ...pad(['Defining the population and the setting in this way allows the activities to be matched to identified need.', 'It is also a precondition for the meaningful assessment of outcomes.'], PADDING_RANK + 1),
    ],
    [
      rank(pick([`The principal activities of ${it.mid} are described below.`, `Several strands of activity can be distinguished.`], 1), 0),
      ...items(reading.programmes, () => it, programmeFrame),
      ...pad(['Each activity addresses a distinct aspect of the need identified above.', 'Taken together, they constitute the programme of work considered here.'], PADDING_RANK + 2),
    ],
    [
      rank('A number of outcomes have been reported.', 0),
      ...items(reading.results, () => it, (phrase, item) => `Reported outcomes also include ${withArticle(phrase, item)}`),
      ...items(reading.awards, () => name, (phrase, _item, who) => awardSentence(phrase, who), 2),
      rank(`The rationale for support therefore rests on an established programme of work and a recorded set of outcomes.`, 3),
      ...pad(['While no single indicator captures the full effect of the work, the figures give a basis for judgement.'], PADDING_RANK),
    ],
    [
      ...asked(context, (names) => `Continued funding is sought to sustain ${names} and to extend the evidence on their effects.`),
      ...contactSentence(context, (who) => `Inquiries about support may be addressed to ${who}.`),
      ...websiteSentence(context, (url) => `Further information about ${name.mid} is available at ${url}.`),
      ...pad(['Partnerships with funders, practitioners and researchers would strengthen both the work and its evidence base.', 'Sustained investment would also allow longer-term outcomes to be observed and documented.'], PADDING_RANK),
    ],
  ]
}

/** "Winner of the 2023 Ashden Award" → "Taa Solar was the winner of the 2023 Ashden Award". */
function awardSentence(phrase: string, subject: Subject): string {
  if (/^(?:winner|finalist|recipient|runner-up)\b/i.test(phrase)) return `${subject.start} ${subject.we ? 'were' : 'was'} the ${phrase}`
  return `${subject.start} ${subject.we ? 'received' : 'received'} ${/^(?:the|a|an)\s/i.test(phrase) ? phrase : `the ${phrase}`}`
}

export const VOICES: Record<Tone, (context: Context) => Paragraph[]> = { professional, conversational, passionate, academic }
