import type { Tone } from '~/shared/tones'
import {
  briefItem,
  core,
  itemSentence,
  joinAnd,
  programmeVerb,
  theySubject,
  weSubject,
  withArticle,
} from '~/server/generation/drafter/clauses.server'
import {
  ASK_RANK,
  type Candidate,
  type Context,
  type Item,
  type Paragraph,
  type Subject,
} from '~/server/generation/drafter/contract.server'

// The four voices (docs/decisions/021). Each chooses its person, its opening move, the order of what it says, its
// sentence shapes and its call to action, and writes the five paragraphs of docs/spec.md#the-prompt as
// ranked candidate sentences; drafter.server.ts keeps as many as 300-400 words allow.
// Every word written here is the voice's own: no digits, no capitalised word inside a sentence and no
// judgement of the work's quality, so every fact and name in a draft is the user's.

export const PADDING_RANK = 4

const rank = (text: string, value: number): Candidate => ({ text, rank: value })
/** A paragraph's lead-in ("So what has changed?"): always kept, but under a funder's limit only with what it leads into. */
const leadIn = (text: string): Candidate => ({ text, rank: 0, lead: true })
const pad = (texts: string[], from = PADDING_RANK): Candidate[] => texts.map((text, index) => rank(text, from + index))

const BRIEF_WORDS = 9
// Which items (by position, counted round in fours) each voice tells briefly: two voices tell at most a
// quarter of the long items both in full; the two in the third person (professional, academic) none.
const BRIEF_PATTERNS = [
  [1, 3],
  [2, 3],
  [0, 1],
  [0, 2],
]

/**
 * The field's items as this voice tells them: some long items cut to their first clause, so two voices
 * never retell the same long sentences word for word. A long item with no clause to cut at is left to
 * the other voices, unless it is the field's first.
 */
function told(context: Context, list: Item[], field: number): Item[] {
  return list.flatMap((item, index) => {
    if (!BRIEF_PATTERNS[context.toneIndex].includes((index + field) % 4) || item.text.split(/\s+/).length <= BRIEF_WORDS) return [item]
    const brief = briefItem(item)
    return brief !== item || index === 0 ? [brief] : []
  })
}

/** Each item as its own sentence: the first of a field ranks above the rest. */
function items(
  list: Item[],
  subject: (index: number) => Subject,
  frame: (phrase: string, item: Item, subject: Subject, index: number) => string,
  first = 1,
): Candidate[] {
  return list.map((item, index) =>
    rank(
      itemSentence(item, subject(index), (phrase) => frame(phrase, item, subject(index), index)),
      index === 0 ? first : first + 1,
    ),
  )
}

const CHATTY = ['First, there’s', 'There’s also', 'Then there’s', 'And there’s']
const STRANDS = [
  'The first strand of activity comprises',
  'A second strand comprises',
  'A third strand comprises',
  'The work also includes',
]

function chattyFrame(phrase: string, item: Item, _subject: Subject, index = 0): string {
  return `${CHATTY[Math.min(index, CHATTY.length - 1)]} ${withArticle(phrase, item)}`
}

function strandFrame(phrase: string, item: Item, _subject: Subject, index = 0): string {
  return `${STRANDS[Math.min(index, STRANDS.length - 1)]} ${withArticle(phrase, item)}`
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
  const opening = context.purpose
    ? rank(lead(context.purpose), 0)
    : first
      ? rank(
          itemSentence(told(context, [first], 0)[0], subject, (phrase) => `${subject.possessive} mission is ${phrase}`),
          0,
        )
      : null
  const others = items(
    told(context, rest, 0),
    () => subject,
    (phrase) => `${subject.start} ${subject.we ? 'work' : 'works'} for ${phrase}`,
    2,
  )
  return [...(opening ? [opening] : []), ...others]
}

/** "We help kids read." → "At Acme Trust, we help kids read.": a voice in the first person still names itself. */
function atOrganisation(context: Context) {
  return (candidate: Candidate, index: number): Candidate =>
    index === 0 && candidate.text.startsWith('We ') && context.reading.name
      ? { ...candidate, text: `At ${context.name}, we ${candidate.text.slice(3)}` }
      : candidate
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

/** The ask: for the programmes by name; written for a funder's call, of that funder, for the amount when one is given. */
function asked(
  context: Context,
  write: (names: string) => string,
  writeToFunder: (funder: string, amount: string | null, names: string | null) => string,
): Candidate[] {
  const names = context.programmeNames.slice(0, 3)
  if (context.ask) return [rank(writeToFunder(context.ask.funder, context.ask.amount, names.length ? joinAnd(names) : null), ASK_RANK)]
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
        pick(
          [
            'This proposal sets out the need behind that aim, the work that answers it, the results so far and the support now sought.',
            'What follows describes the need, the programmes that meet it, the results to date and the support now requested.',
          ],
          0,
        ),
        'It sets out the case plainly, so that a funder can judge it on the facts.',
        'Each part is drawn from its own account of the work.',
      ]),
    ],
    [
      ...items(
        told(context, reading.audience, 1),
        () => it,
        (phrase, _item, who, index) => (index === 0 ? `The need it answers lies with ${phrase}` : `${who.start} also works with ${phrase}`),
      ),
      ...items(
        told(context, reading.places, 2),
        () => it,
        (phrase, _item, who) => `${who.start} works ${where(phrase)}`,
      ),
      ...pad(
        [
          pick(
            [
              'That is the context for the programmes described next.',
              'That need is the starting point for each of the programmes that follow.',
            ],
            1,
          ),
          'Meeting it calls for steady, long-term work rather than one-off projects.',
          'Those are the people and the places this proposal is about.',
        ],
        PADDING_RANK + 1,
      ),
    ],
    [
      leadIn(
        pick(
          [
            `To meet that need, ${name.mid} runs a focused set of programmes.`,
            `${name.start} meets that need through a small number of focused programmes.`,
          ],
          2,
        ),
      ),
      ...items(told(context, reading.programmes, 3), () => it, programmeFrame),
      ...pad(
        [
          'Together they make up the core of the work.',
          'Fuller detail on each is available on request.',
          'Each is summarised briefly here.',
          'Each has its own staff, partners and routines, described more fully on request.',
        ],
        PADDING_RANK + 2,
      ),
    ],
    [
      leadIn(pick(['The results to date can be stated in figures.', 'The results so far are best told in figures.'], 3)),
      ...items(
        told(context, reading.results, 4),
        () => it,
        (phrase, item) => `Its record also includes ${withArticle(phrase, item)}`,
      ),
      ...items(
        told(context, reading.awards, 5),
        () => name,
        (phrase, _item, who) => awardSentence(phrase, who),
        2,
      ),
      rank(`The case for investing in ${name.mid} rests on programmes that are already running and results that are already recorded.`, 3),
      ...pad(
        [
          'Those results are the basis on which further support is requested.',
          'Each figure is a measure of the programmes described above.',
          'The figures are given here as recorded.',
        ],
        PADDING_RANK + 1,
      ),
    ],
    [
      ...asked(
        context,
        (names) => `${name.start} is seeking funding to sustain and extend ${names}.`,
        (funder, amount, names) =>
          `${name.start} requests ${amount ? `${amount} from` : 'the support of'} ${funder} for ${names ?? 'this work'}.`,
      ),
      ...contactSentence(context, (who) => `To discuss support for this work, please contact ${who}.`),
      ...websiteSentence(context, (url) => `Further information is available at ${url}.`),
      ...pad(
        [
          pick(
            [
              'We would welcome the opportunity to discuss a partnership in more detail.',
              'We would be glad to provide any further information a funder needs.',
            ],
            4,
          ),
          'Support at this stage would help to secure the work for the longer term.',
          'A conversation is the best next step.',
        ],
        PADDING_RANK,
      ),
    ],
  ]
}

// ---- Conversational: "we" and "you", the people first, a friendly invitation ----

function conversational(context: Context): Paragraph[] {
  const { reading, pick } = context
  const we = weSubject()
  const opening =
    reading.audience.length > 0
      ? [
          ...items(
            told(context, reading.audience.slice(0, 1), 1),
            () => we,
            (phrase) => `${pick(['Let us start with the people', 'We want to start with the people'], 0)} we’re here for: ${core(phrase)}`,
            0,
          ),
          ...missionOpening(
            context,
            we,
            (purpose) =>
              `Everything we do at ${context.name === reading.descriptor ? 'our place' : context.name} comes back to one aim, which is to ${purpose}.`,
          ),
        ]
      : missionOpening(context, we, (purpose) => `At ${context.name}, we’re here to ${purpose}.`).map(atOrganisation(context))
  return [
    [
      ...opening,
      ...pad([
        "That's the short version, and the rest of this is the longer one.",
        'It’s a simple aim to say, and it takes a lot of people to get right.',
        'We’d like to tell you a bit more about it.',
      ]),
    ],
    [
      ...items(
        told(context, reading.audience.slice(1), 1),
        () => we,
        (phrase) => `We also work with ${phrase}`,
      ),
      ...items(
        told(context, reading.places, 2),
        () => we,
        (phrase) => `You’ll find us ${where(phrase)}`,
      ),
      ...pad(
        [
          'If you live there, you may already know someone we work with.',
          "Nobody should have to face that on their own, and that's where we come in.",
          "That's who we mean when we talk about our community.",
          'They’re the reason we do any of this.',
        ],
        PADDING_RANK + 1,
      ),
    ],
    [
      leadIn(pick(['Here’s what that looks like day to day.', 'So what do we actually do?'], 1)),
      ...items(told(context, reading.programmes, 3), () => we, chattyFrame),
      ...pad(
        [
          'We try to keep every part of it practical, friendly and easy to get to.',
          'And we’re always asking how we can do it a little better.',
          'If you’ve ever wondered what a day with us looks like, that’s it.',
          'It all starts with showing up, week in and week out.',
        ],
        PADDING_RANK + 2,
      ),
    ],
    [
      leadIn('So what has changed?'),
      ...items(
        told(context, reading.results, 4),
        () => we,
        (phrase, item) => `Add to that ${withArticle(phrase, item)}`,
      ),
      ...items(
        told(context, reading.awards, 5),
        () => we,
        (phrase, _item, who) => awardSentence(phrase, who),
        2,
      ),
      rank('None of this is starting from scratch, which is why your help goes straight into work that already runs.', 3),
      ...pad(
        [
          "Every one of those numbers is a person, and that's what keeps us going.",
          'We keep count because it helps us see what’s working.',
          'We’re proud of those numbers, and we know there’s more to do.',
        ],
        PADDING_RANK,
      ),
    ],
    [
      ...asked(
        context,
        (names) => `We’re looking for support to keep ${names} going.`,
        (funder, amount, names) => `We’re asking ${funder} for ${amount ?? 'a hand'} to keep ${names ?? 'all of this'} going.`,
      ),
      ...contactSentence(context, (who) => `If you’d like to talk about helping, get in touch with ${who}.`),
      ...websiteSentence(context, (url) => `You can also find out more at ${url}.`),
      ...pad(
        [
          pick(["We'd love to hear from you.", "We'd be really glad to hear from you."], 2),
          'Whether you give, volunteer or simply pass this on, you’ll be part of it.',
          'Every bit of help adds up.',
          'Honestly, it would mean a lot.',
        ],
        PADDING_RANK,
      ),
    ],
  ]
}

// ---- Passionate: "we", a figure first, an urgent call ----

function passionate(context: Context): Paragraph[] {
  const { reading, pick } = context
  const we = weSubject()
  // The opening move is a figure: the first result that has one, when there is one.
  const headline = reading.results.find((item) => item.figure)
  const results = reading.results.filter((item) => item !== headline)
  const resultFrame = (phrase: string, item: Item) => `And there is more to count, with ${withArticle(phrase, item)}`
  return [
    [
      ...(headline ? items(told(context, [headline], 0), () => we, resultFrame, 0) : []),
      ...missionOpening(
        context,
        we,
        (purpose) => `${headline ? 'Behind every figure is one purpose' : 'We have one purpose'}: we exist to ${core(purpose)}.`,
      ),
      ...pad([
        'This is not simply what we do; it is why we exist.',
        pick(['And it is a purpose that cannot wait.', 'It is a purpose that will not wait for better times.'], 0),
        'We believe things can be different, and we are determined to prove it.',
      ]),
    ],
    [
      ...items(
        told(context, reading.audience, 1),
        () => we,
        (phrase) => `We stand with ${phrase}`,
      ),
      ...items(
        told(context, reading.places, 2),
        () => we,
        (phrase) => `We work ${where(phrase)}, and this is where our hearts are`,
      ),
      ...pad(
        [
          'Every person deserves the chance to thrive, and too many are still waiting for it.',
          'Their needs are real, and they cannot be put off for another day.',
          'We refuse to look away.',
        ],
        PADDING_RANK + 1,
      ),
    ],
    [
      leadIn(pick(['We answer that need with action, not just words.', 'So we act.'], 1)),
      ...items(told(context, reading.programmes, 3), () => we, programmeFrame),
      ...pad(
        [
          'Each of these is an act of hope, offered with care.',
          'This is compassion made practical, day after day.',
          'Each one is a promise we intend to keep.',
          'All of it happens because people choose to act.',
        ],
        PADDING_RANK + 2,
      ),
    ],
    [
      leadIn('And the change is real.'),
      ...items(told(context, results, 4), () => we, resultFrame),
      ...items(
        told(context, reading.awards, 5),
        () => we,
        (phrase, _item, who) => awardSentence(phrase, who),
        2,
      ),
      rank('This is not a plan on paper; it is work already under way, with results to show for it.', 3),
      ...pad(
        ['Each result stands for a real person and a real step forward.', 'Every number here has a name and a story behind it.'],
        PADDING_RANK,
      ),
    ],
    [
      ...asked(
        context,
        (names) => `We need your support to keep ${names} going.`,
        (funder, amount, names) => `We are asking ${funder} ${amount ? `for ${amount} ` : ''}to keep ${names ?? 'this work'} going.`,
      ),
      rank(`Now is the time to stand with ${context.name}.`, 0),
      ...contactSentence(context, (who) => `Reach out to ${who} today.`),
      ...websiteSentence(context, (url) => `Discover more and get involved at ${url}.`),
      ...pad(
        [
          pick(['Together, we are stronger than any challenge in front of us.', 'Join us, and let us make this change last.'], 2),
          'Every gift, every hour and every voice brings that future closer.',
          'The need will not wait, and neither can we.',
          'Stand with us, and be part of what comes next.',
        ],
        PADDING_RANK,
      ),
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
      ...missionOpening(context, name, () => `The problem addressed by ${name.mid} is one of ${core(context.purposing ?? '')}.`),
      ...pad([
        pick(
          [
            'The account that follows considers the context of need, the design of the work, the evidence of its effects and the case for continued support.',
            'This account describes the setting, the activities undertaken, the outcomes reported and the rationale for further support.',
          ],
          0,
        ),
        'It is descriptive, and it draws only on the information the organization has reported.',
      ]),
    ],
    [
      ...items(
        told(context, reading.audience, 1),
        () => it,
        (phrase) => `${research ? 'The work is directed at' : 'The intended beneficiaries are'} ${core(phrase)}`,
      ),
      ...items(
        told(context, reading.places, 2),
        () => it,
        (phrase) =>
          /^(?:in|across|throughout|around|within|at)\s/i.test(phrase)
            ? `The work takes place ${phrase}`
            : `The geographical setting is ${phrase}`,
      ),
      ...pad(
        [
          'Defining the population and the setting in this way allows the activities to be matched to identified need.',
          'It is also a precondition for the meaningful assessment of outcomes.',
          'The following section turns to the activities undertaken.',
          'Both are stated here as the organization defines them.',
        ],
        PADDING_RANK + 1,
      ),
    ],
    [
      leadIn(pick([`The principal activities of ${it.mid} are described below.`, `Several strands of activity can be distinguished.`], 1)),
      ...items(told(context, reading.programmes, 3), () => it, strandFrame),
      ...pad(
        [
          'Each activity addresses a distinct aspect of the need identified above.',
          'Taken together, they constitute the programme of work considered here.',
          'Each is considered briefly in turn.',
          'The relationship between these activities and the outcomes reported is considered in the next section.',
        ],
        PADDING_RANK + 2,
      ),
    ],
    [
      leadIn('A number of outcomes have been reported.'),
      ...items(
        told(context, reading.results, 4),
        () => it,
        (phrase, item) => `Reported outcomes also include ${withArticle(phrase, item)}`,
      ),
      ...items(
        told(context, reading.awards, 5),
        () => name,
        (phrase, _item, who) => awardSentence(phrase, who, true),
        2,
      ),
      rank(`The rationale for support therefore rests on an established programme of work and a recorded set of outcomes.`, 3),
      ...pad(
        [
          'While no single indicator captures the full effect of the work, the figures give a basis for judgement.',
          'Further evaluation would allow these findings to be tested and refined.',
          'The outcomes are reported here as recorded, without adjustment.',
        ],
        PADDING_RANK,
      ),
    ],
    [
      ...asked(
        context,
        (names) => `Continued funding is sought to sustain ${names} and to extend the evidence on their effects.`,
        (funder, amount, names) => `${amount ? `A grant of ${amount}` : 'Funding'} is sought from ${funder} for ${names ?? 'this work'}.`,
      ),
      ...contactSentence(context, (who) => `Inquiries about support may be addressed to ${who}.`),
      ...websiteSentence(context, (url) => `Further information about ${name.mid} is available at ${url}.`),
      ...pad(
        [
          'Partnerships with funders, practitioners and researchers would strengthen both the work and its evidence base.',
          'Sustained investment would also allow longer-term outcomes to be observed and documented.',
          'Such support would represent a considered response to the need described above.',
        ],
        PADDING_RANK,
      ),
    ],
  ]
}

/** "Winner of the 2023 Ashden Award" → "Taa Solar was the winner of the 2023 Ashden Award". */
function awardSentence(phrase: string, subject: Subject, named = false): string {
  if (/^(?:winner|finalist|recipient|runner-up)\b/i.test(phrase))
    return `${subject.start} ${subject.we ? 'were' : 'was'}${named ? ' named' : ''} the ${phrase}`
  return `${subject.start} received ${/^(?:the|a|an)\s/i.test(phrase) ? phrase : `the ${phrase}`}`
}

export const VOICES: Record<Tone, (context: Context) => Paragraph[]> = { professional, conversational, passionate, academic }
