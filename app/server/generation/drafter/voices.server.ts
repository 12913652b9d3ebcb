import type { Tone } from '~/shared/tones'
import {
  briefItem,
  capitalise,
  core,
  gerundOf,
  isPlural,
  itemSentence,
  joinAnd,
  lowerFirst,
  programmeVerb,
  weSubject,
  withArticle,
  type Telling,
} from '~/server/generation/drafter/clauses.server'
import type { Candidate, Context, Item, Paragraph, Subject } from '~/server/generation/drafter/contract.server'

// The voices (docs/decisions/021 and 033) hold no digit or capital of their own, so every figure and name in a draft is the user's.

/** Ranks: 0 the draft needs it, 1 a fact of the inputs, 2 a connective that says something of this organisation, 3 a reprise. */
const rank = (text: string, value: number, extra: Partial<Candidate> = {}): Candidate => ({ text, rank: value, ...extra })

const DROP = { missionMore: 90, audienceMore: 80, placeMore: 70, result: 50, programme: 40, award: 30, story: 20, audience: 15, place: 10 }

/** Each item of `list` as its own sentence, with a briefer telling for a draft that is short of room. */
function facts(
  context: Context,
  list: Item[],
  subject: (index: number) => Subject,
  frame: (phrase: string, item: Item, subject: Subject, index: number) => string,
  options: { telling?: Telling; role?: Candidate['role']; drop: number; firstDrop?: number },
): Candidate[] {
  const candidates = list.map((item, index) => {
    const who = subject(index)
    const write = (told: Item) => itemSentence(told, who, (phrase) => frame(phrase, told, who, index), options.telling)
    const brief = briefItem(item)
    return rank(write(item), 1, {
      item,
      role: options.role,
      brief: brief !== item ? write(brief) : undefined,
      drop: index === 0 && options.firstDrop !== undefined ? options.firstDrop : options.drop + index / 100,
    })
  })
  // "Of those who completed, 44 …" is told only with the result it points back at.
  for (const [index, candidate] of candidates.entries()) if (index > 0 && candidate.item?.leans) candidate.follows = candidates[index - 1]
  return candidates
}

/** The people, briefly, cut only where a list of them has ended; null when they take too long to say. */
function shortAudience(text: string): string | null {
  const cut = /,\s+(?:[^,\s]+\s){0,3}(?:whom|which)\s|\s(?:who|whom|especially|including|particularly)\s|,\s+and\s+the\s/.exec(text)
  const head = (cut && text.slice(0, cut.index).split(/\s+/).length >= 2 ? text.slice(0, cut.index) : text).replace(/[\s,;:]+$/, '')
  return head.split(/\s+/).length <= 12 ? lowerFirst(head) : null
}

function where(phrase: string): string {
  if (/^(?:in|across|throughout|around|within|at|from|on|along|near)\s/i.test(phrase)) return phrase
  // "City of Kingston and …" is "the City of Kingston".
  return /^(?:City|County|Town|Borough|District|Municipality|Region|Province|State) of\s/.test(phrase) ? `in the ${phrase}` : `in ${phrase}`
}

/** The mission: its aim said by the voice when the mission states one, else its own first sentence; the rest as it is. */
function mission(context: Context, subject: Subject, lead: (purpose: string) => string): Candidate[] {
  const [first, ...rest] = context.reading.mission
  const opening = context.purpose
    ? rank(lead(context.purpose), 0, { item: first })
    : first
      ? rank(
          itemSentence(first, subject, (phrase) => `${subject.possessive} ${context.say('mission is')} ${phrase}`),
          0,
          { item: first },
        )
      : null
  // After the first mention, the organisation is "it", or its descriptor: its name once is enough.
  const again = subject.we ? subject : context.they(1)
  const others = facts(
    context,
    rest,
    () => again,
    (phrase) => `${again.start} ${context.say(again.we ? 'work' : 'works')} for ${phrase}`,
    {
      drop: DROP.missionMore,
    },
  )
  return [...(opening ? [opening] : []), ...others]
}

function need(
  context: Context,
  subject: Subject,
  frames: { first: (phrase: string) => string; more: (phrase: string) => string; place: (phrase: string) => string },
  audience = context.reading.audience,
): Candidate[] {
  return [
    ...facts(
      context,
      audience,
      () => subject,
      (phrase, _item, _who, index) => (index === 0 ? frames.first(phrase) : frames.more(phrase)),
      {
        drop: DROP.audienceMore,
        firstDrop: DROP.audience,
      },
    ),
    ...facts(
      context,
      context.reading.places,
      () => subject,
      (phrase) => frames.place(phrase),
      {
        drop: DROP.placeMore,
        firstDrop: DROP.place,
      },
    ),
  ]
}

function programmes(context: Context, subject: (index: number) => Subject, frame: Parameters<typeof facts>[3]): Candidate[] {
  return facts(context, context.programmes, subject, frame, { telling: 'present', role: 'programme', drop: DROP.programme })
}

function results(
  context: Context,
  list: Item[],
  subject: (index: number) => Subject,
  frame: Parameters<typeof facts>[3],
  telling: Telling,
) {
  return facts(context, list, subject, frame, { telling, role: 'result', drop: DROP.result })
}

function awards(context: Context, subject: Subject, named = false): Candidate[] {
  return facts(
    context,
    context.reading.awards,
    () => subject,
    (phrase) => awardSentence(context, phrase, subject, named),
    {
      role: 'result',
      drop: DROP.award,
    },
  )
}

/** The success story, as written; a third-person voice gives it its own paragraph and says whose it is, so its "we" is theirs. */
function story(context: Context, lead?: string): Candidate[] {
  const told = context.reading.story
  return told ? [rank(lead ? `${lead} ${told}` : told, 1, { role: 'story', drop: DROP.story })] : []
}

function programmeList(context: Context, write: (list: string) => string): Candidate[] {
  const render = (names: string[]) => (names.length >= 2 ? write(joinAnd(names.slice(0, 4))) : null)
  const text = render(context.programmeNames)
  return text ? [rank(text, 2, { ask: render })] : []
}

/** Written once the draft knows which programmes it kept; `many`: it names more than one ("their effects", not "its"). */
function ask(write: (names: string | null, many: boolean) => string, context: Context): Candidate {
  const render = (names: string[]) => write(names.length ? joinAnd(names.slice(0, 3)) : null, names.length > 1)
  return rank(render(context.programmeNames), 0, { role: 'ask', ask: render })
}

function contactSentence(context: Context, write: (who: string) => string): Candidate[] {
  return context.contact ? [rank(write(context.contact), 0)] : []
}

function websiteSentence(context: Context, write: (url: string) => string): Candidate[] {
  return context.reading.website ? [rank(write(context.reading.website), 2)] : []
}

function termSentence(context: Context, write: (funder: string, term: string) => string): Candidate[] {
  return context.brief && context.term ? [rank(write(context.brief.funder, context.term), 2)] : []
}

/** Why this organisation: work already running and results already recorded, said only when the inputs give results. */
function why(context: Context, text: string): Candidate[] {
  return context.results.length > 0 || context.reading.awards.length > 0 ? [rank(text, 2)] : []
}

function reprise(context: Context, write: (purpose: string) => string): Candidate[] {
  return context.purpose ? [rank(write(core(context.purpose)), 3)] : []
}

// ---- Professional: the organisation in the third person, the mission first, a formal request ----

function professional(context: Context): Paragraph[] {
  const { reading, say, pick, brief } = context
  const name = context.they(0)
  const it = context.they(1)
  return [
    mission(context, name, (purpose) => `${name.start} ${say('exists to')} ${purpose}.`),
    need(context, it, {
      first: (phrase) => `${it.start} ${say('serves')} ${phrase}`,
      more: (phrase) => `${it.start} ${say('also works with')} ${phrase}`,
      // "The collective works in …" reads to the small tagger as a noun phrase; "is" is a verb to it always.
      place: (phrase) => `${it.possessive} ${say('work is')} ${where(phrase)}`,
    }),
    [
      ...programmeList(context, (list) =>
        pick(
          [`${name.start} ${say('meets that need through')} ${list}.`, `${say('The work of')} ${name.mid} ${say('includes')} ${list}.`],
          0,
        ),
      ),
      ...programmes(context, (index) => (index % 2 === 1 ? theyIt(context) : it), programmeFrame(context)),
    ],
    [
      ...results(
        context,
        context.results,
        (index) => (index % 2 === 1 ? theyIt(context) : it),
        (phrase, item, who) => `${who.possessive} ${say('record also includes')} ${withArticle(phrase, item)}`,
        'past',
      ),
      ...awards(context, name),
      ...why(
        context,
        `${say('The case for')} ${name.mid} ${say('rests on work that is already running and results that are already recorded')}.`,
      ),
    ],
    story(context, `${say('Here is one story, as')} ${name.mid} ${say('tells it.')}`),
    [
      ask((names) => {
        const what = names ?? say('its work')
        return brief
          ? `${name.start} ${say('asks')} ${brief.funder} ${say('for')} ${brief.amount ?? say('support')} ${say('to maintain and extend')} ${what}.`
          : `${name.start} ${say('is seeking funding to sustain and extend')} ${what}.`
      }, context),
      ...termSentence(context, (funder, term) => `${say('In')} ${funder}${say('’s terms, this is work on')} ${term}.`),
      ...reprise(context, (purpose) => `${say('That support would help')} ${name.mid} ${purpose}.`),
      ...contactSentence(context, (who) =>
        pick(
          [
            `${say('To discuss support for this work, please contact')} ${who}.`,
            `${say('For a conversation about this work, please contact')} ${who}.`,
          ],
          2,
        ),
      ),
      ...websiteSentence(
        context,
        (url) => `${say('Further information about')} ${reading.name ? it.mid : name.mid} ${say('is available at')} ${url}.`,
      ),
    ],
  ]
}

// ---- Conversational: "we" and "you", the people first, a friendly invitation ----

function conversational(context: Context): Paragraph[] {
  const { reading, say, pick, brief } = context
  const we = weSubject()
  const [firstAudience, ...moreAudience] = reading.audience
  // The people first; a regenerated draft may open with the aim instead.
  const peopleFirst = firstAudience && context.variation % 2 === 0
  const aim = mission(context, we, (purpose) => `${say('At')} ${context.nameInside}, ${say('we’re here to')} ${purpose}.`)
  const people = firstAudience
    ? facts(
        context,
        [firstAudience],
        () => we,
        (phrase) => `${say('We’re here for')} ${core(phrase)}`,
        { drop: DROP.audience },
      )
    : []
  const told = results(
    context,
    context.results,
    () => we,
    (phrase, item, _who, index) =>
      index % 2 === 0
        ? `${say('Add to that')} ${withArticle(phrase, item)}`
        : `${say(isPlural(item) ? 'On top of that, there are' : 'On top of that, there is')} ${withArticle(phrase, item)}`,
    'past',
  )
  // The question leads into the results: it stays only with the first of them.
  const whom = firstAudience ? shortAudience(firstAudience.text) : null
  // A change is asked about only where a result answers it: "We started in 2016 …" does not.
  const question =
    whom && told[0] && !HISTORY.test(told[0].text) ? [rank(`${say('So what has changed for')} ${whom}?`, 2, { follows: told[0] })] : []
  return [
    peopleFirst ? [...people, ...aim] : [...aim, ...people],
    need(
      context,
      we,
      {
        first: (phrase) => `${say('We also work with')} ${phrase}`,
        more: (phrase) => `${say('We also work with')} ${phrase}`,
        place: (phrase) => `${say('You’ll find us')} ${where(phrase)}`,
      },
      moreAudience,
    ),
    [
      ...programmeList(context, (list) =>
        pick([`${say('Day to day, that means')} ${list}.`, `${say('At')} ${context.nameInside}, ${say('that means')} ${list}.`], 1),
      ),
      ...programmes(context, () => we, chattyFrame(context)),
    ],
    [
      ...question,
      ...told,
      ...awards(context, we),
      ...why(
        context,
        `${say('None of this starts from scratch: your help would go straight into work')} ${context.nameInside} ${say('already does')}.`,
      ),
    ],
    // A paragraph of its own, said to be a story: run on after the results, it read as one more of them.
    story(context, `${say('This is one story from')} ${context.nameInside}.`),
    [
      ask((names) => {
        const what = names ?? `${say('our work at')} ${context.nameInside}`
        if (brief)
          return `${say('We’re asking')} ${brief.funder} ${say('for')} ${brief.amount ?? say('support')} ${say('to keep')} ${what} ${say('going')}.`
        return reading.sector === 'non-profit'
          ? `${say('We’re looking for support to keep')} ${what} ${say('going')}.`
          : `${say('We’re looking for partners and funding to keep')} ${what} ${say('going')}.`
      }, context),
      ...termSentence(context, (funder, term) => `${capitalise(funder)} ${say('would call it')} ${term}, ${say('and so would we')}.`),
      ...contactSentence(context, (who) =>
        pick(
          [
            `${say('If you’d like to talk about it, get in touch with')} ${who}.`,
            `${say('To talk it through, get in touch with')} ${who}.`,
          ],
          2,
        ),
      ),
      ...websiteSentence(context, (url) => `${say('You can find out more at')} ${url}.`),
      ...reprise(context, (purpose) => `${say('Together we can')} ${purpose}.`),
    ],
  ]
}

// ---- Passionate: "we", a figure (or the story) first, an urgent call ----

function passionate(context: Context): Paragraph[] {
  const { reading, say, pick, brief } = context
  const we = weSubject()
  // The opening move is a figure (a count, not a year alone: "Founded in 2016" is none), or the story.
  const figures = context.results.filter((item, index) => COUNT.test(item.text) && !item.leans && !context.results[index + 1]?.leans)
  const storyFirst = Boolean(reading.story) && (figures.length === 0 || context.variation % 3 === 2)
  const headline = storyFirst ? undefined : figures[0]
  const rest = context.results.filter((item) => item !== headline)
  const resultFrame = (phrase: string, item: Item, _who: Subject, index: number) =>
    index % 2 === 0 ? `${say('And there is more')}: ${withArticle(phrase, item)}` : `${say('Add to that')} ${withArticle(phrase, item)}`
  const opening = headline
    ? results(
        context,
        [headline],
        () => we,
        (phrase, item) => `${say('We count')} ${withArticle(phrase, item)}`,
        'past',
      ).map((candidate) => ({
        ...candidate,
        rank: 0,
      }))
    : storyFirst
      ? story(context).map((candidate) => ({ ...candidate, rank: 0 }))
      : []
  const behind = headline
    ? say('Behind that figure is one purpose')
    : storyFirst
      ? say('Behind that story is one purpose')
      : say('We have one purpose')
  return [
    [...opening, ...mission(context, we, (purpose) => `${behind}: ${say('we exist to')} ${core(purpose)}.`)],
    need(context, we, {
      first: (phrase) => `${say('We stand with')} ${phrase}`,
      more: (phrase) => `${say('We stand with')} ${phrase}`,
      place: (phrase) => `${say('We work')} ${where(phrase)}`,
    }),
    programmes(
      context,
      (index) => (index % 2 === 1 ? { ...we, start: say('We also') } : we),
      (phrase, item, who) => `${who.start} ${programmeVerb(item, true)} ${withArticle(phrase, item)}`,
    ),
    [
      ...results(context, rest, () => we, resultFrame, 'past'),
      ...awards(context, we),
      ...why(context, `${say('This is not a plan on paper')}: ${context.nameInside} ${say('is doing this work now')}.`),
    ],
    storyFirst ? [] : story(context, `${say('Here is one story from')} ${context.nameInside}.`),
    [
      ask((names) => {
        const what = names ?? `${say('the work of')} ${context.nameInside}`
        return brief
          ? `${say('We ask')} ${brief.funder} ${say('for')} ${brief.amount ?? say('support')} ${say('to keep')} ${what} ${say('going, now')}.`
          : `${say('We need your support to keep')} ${what} ${say('going')}.`
      }, context),
      ...termSentence(context, (funder, term) => `${say('This is')} ${term}, ${say('in')} ${funder}${say('’s own words')}.`),
      ...reprise(context, (purpose) => `${say('Stand with')} ${context.nameInside} ${say('to')} ${purpose}.`),
      ...contactSentence(context, (who) =>
        pick([`${say('Reach out to')} ${who} ${say('today')}.`, `${say('Get in touch with')} ${who} ${say('today')}.`], 2),
      ),
      ...websiteSentence(context, (url) => `${say('See the work for yourself at')} ${url}.`),
    ],
  ]
}

// ---- Academic: the organisation in the third person, the problem first, a measured request ----

function academic(context: Context): Paragraph[] {
  const { reading, say, pick, brief } = context
  const name = context.they(0)
  const it = context.they(1)
  const research = reading.kind === 'research'
  const problem = context.purpose ? gerundOf(context.purpose) : null
  return [
    mission(context, name, () =>
      PROBLEM_VERB.test(context.purpose ?? '')
        ? `${say('The problem addressed by')} ${name.mid} ${say('is one of')} ${core(problem ?? '')}.`
        : `${say('The work of')} ${name.mid} ${say('is directed at')} ${core(problem ?? '')}.`,
    ),
    need(context, it, {
      first: (phrase) => `${say(research ? 'The work is directed at' : 'The intended beneficiaries are')} ${core(phrase)}`,
      more: (phrase) => `${say('The work also concerns')} ${phrase}`,
      place: (phrase) =>
        /^(?:in|across|throughout|around|within|at)\s/i.test(phrase)
          ? `${say('The work takes place')} ${phrase}`
          : `${say('The work is set')} ${where(phrase)}`,
    }),
    [
      ...programmeList(context, (list) => `${say('The activities of')} ${name.mid} ${say('include')} ${list}.`),
      ...programmes(context, () => it, strandFrame(context)),
    ],
    [
      ...results(
        context,
        context.results,
        () => it,
        (phrase, item) => `${say('Reported outcomes also include')} ${withArticle(phrase, item)}`,
        'passive',
      ),
      ...awards(context, name, true),
      ...why(
        context,
        `${say('The rationale for support therefore rests on an established program of work at')} ${name.mid} ${say('and a recorded set of outcomes')}.`,
      ),
    ],
    story(context, `${say('The case that follows is given in the words of')} ${name.mid.replace(/\.$/, '')}.`),
    [
      ask((names, many) => {
        const what = names ?? `${say('the work of')} ${name.mid}`
        return brief
          ? `${say('Funding of')} ${brief.amount ?? say('an amount to be agreed')} ${say('is sought from')} ${brief.funder} ${say('to maintain')} ${what} ${say(`and to extend the evidence on ${many ? 'their' : 'its'} effects`)}.`
          : `${say('Continued funding is sought to sustain')} ${what} ${say(`and to extend the evidence on ${many ? 'their' : 'its'} effects`)}.`
      }, context),
      ...termSentence(context, (funder, term) => `${say('In the terms of')} ${funder}${say('’s call, the work addresses')} ${term}.`),
      ...contactSentence(context, (who) =>
        pick(
          [
            `${say('Inquiries about support may be addressed to')} ${who}.`,
            `${say('Correspondence about support may be addressed to')} ${who}.`,
          ],
          2,
        ),
      ),
      ...websiteSentence(context, (url) => `${say('Further information about')} ${name.mid} ${say('is available at')} ${url}.`),
    ],
  ]
}

const HISTORY = /\b(?:started|founded|began|opened|set up|established|was formed|grew out of)\b/i

/** A number that counts something: not a year alone ("since 2016"). */
const COUNT = /(?<![\d,.])(?!(?:19|20)\d\d(?![\d,.%]))\d/

/** An aim that is a problem to end ("end hunger", "reduce isolation"): what the academic voice calls the problem. */
const PROBLEM_VERB =
  /^(?:end|ending|reduce|reducing|tackle|tackling|prevent|preventing|fight|fighting|combat|eliminate|eradicate|cut|close|break|stop|lower|overcome|relieve|alleviate|ease)\b/i

function theyIt(context: Context): Subject {
  return { ...context.they(1), start: 'It', mid: 'it', possessive: 'Its', object: context.they(1).mid }
}

function programmeFrame(context: Context) {
  return (phrase: string, item: Item, subject: Subject, index: number) =>
    `${index % 2 === 1 ? `${subject.start} ${context.say('also')}` : subject.start} ${programmeVerb(item, subject.we)} ${withArticle(phrase, item)}`
}

function chattyFrame(context: Context) {
  const frames = [
    ['First, there’s', 'First, there are'],
    ['There’s also', 'There are also'],
    ['Then there’s', 'Then there are'],
    ['And there’s', 'And there are'],
  ]
  return (phrase: string, item: Item, _subject: Subject, index: number) =>
    `${context.say(frames[Math.min(index, frames.length - 1)][isPlural(item) ? 1 : 0])} ${withArticle(phrase, item)}`
}

function strandFrame(context: Context) {
  const frames = ['One strand of the work is', 'A second strand is', 'A third strand is', 'The work also includes']
  return (phrase: string, item: Item, _subject: Subject, index: number) =>
    `${context.say(frames[Math.min(index, frames.length - 1)])} ${withArticle(phrase, item)}`
}

/** "Winner of the 2023 Ashden Award" → "Taa Solar was the winner of the 2023 Ashden Award". */
function awardSentence(context: Context, phrase: string, subject: Subject, named = false): string {
  if (/^(?:winner|finalist|recipient|runner-up)\b/i.test(phrase))
    return `${subject.start} ${context.say(subject.we ? 'were' : 'was')}${named ? ` ${context.say('named')}` : ''} the ${phrase}`
  return `${subject.start} ${context.say('received')} ${/^(?:the|a|an)\s/i.test(phrase) ? phrase : `the ${phrase}`}`
}

export const VOICES: Record<Tone, (context: Context) => Paragraph[]> = { professional, conversational, passionate, academic }

/** What a voice starts a sentence with when the one before it also opened on a figure. */
export const NUMERAL_BRIDGES: Record<Tone, string[]> = {
  professional: ['In addition,', 'Alongside this,', 'Further,'],
  conversational: ['On top of that,', 'And', 'Plus,'],
  passionate: ['And', 'Beyond that,', 'What is more,'],
  academic: ['In addition,', 'Further,', 'Moreover,'],
}
