import type { NarrativeInput } from '~/shared/narrative-schema'
import { countWords } from '~/shared/text'
import type { Tone } from '~/shared/tones'

// The offline drafter (DESIGN.md decision 2): writes the narrative from the user's own words when no
// model is configured. Its own wording holds no digits and no capitalised words mid-sentence, so every
// number and proper name in a draft comes from the input.

export const DRAFTER_ENGINE = 'offline-drafter'

const TRIM_TARGET = 390
const PAD_TARGET = 330
const MIN_TRIMMED_WORDS = 12
const SHORT_DETAIL_WORDS = 12

type Content = { kind: 'phrase'; text: string } | { kind: 'sentences'; sentences: string[] }
type FieldKey = 'mission' | 'audience' | 'place' | 'programs' | 'impact'
type Fields = Record<FieldKey, Content | null>
type OrganizationName = { start: string; mid: string }

type Lead = { phrase: string; sentence: string }
type Voice = {
  opening: { toMission: (org: OrganizationName) => string; lead: (org: OrganizationName) => Lead; fillers: string[] }
  context: { audience: Lead; place: Lead; general: string; fillers: string[] }
  programs: { lead: Lead; fillers: string[] }
  impact: { lead: Lead; fillers: string[] }
  action: {
    invite: (org: OrganizationName) => string
    contact?: (who: string) => string
    website: (url: string, org: OrganizationName) => string
    closing: (org: OrganizationName) => string
    fillers: string[]
  }
}

// A lead is written twice: ending in a colon before a single phrase, or as a sentence before several.
const lead = (phrase: string): Lead => ({ phrase, sentence: phrase.replace(/:$/, '.') })

const VOICES: Record<Tone, Voice> = {
  professional: {
    opening: {
      toMission: (org) => `${org.start} exists to`,
      lead: (org) => lead(`${org.start} is guided by a clearly defined mission:`),
      fillers: [
        'That mission shapes how we plan, deliver and evaluate every part of our work.',
        'It reflects a sustained commitment to the people and communities we serve.',
        'This narrative sets out the need we address, the services we provide and the difference they make.',
      ],
    },
    context: {
      audience: lead('Our services are directed to the people who need them most:'),
      place: lead('Our work has a clear geographic focus:'),
      general:
        'In every community there are people whose needs are not fully met by existing services, and closing those gaps requires sustained and focused effort.',
      fillers: [
        'Understanding their circumstances allows us to design services that respond to real need rather than assumption.',
        'Meeting that need calls for consistency, careful stewardship of resources and a long-term commitment.',
        'It is this need that gives our work both its urgency and its direction.',
      ],
    },
    programs: {
      lead: lead('We respond to this need through a focused set of programs and services:'),
      fillers: [
        'Each program is designed to respond directly to the needs described above.',
        'Together, these services form a coherent approach in which each element supports the others.',
        'Our aim is that every participant receives support that is timely, respectful and effective.',
      ],
    },
    impact: {
      lead: lead('The results of this work are clear:'),
      fillers: [
        'These outcomes show what focused, well-managed services can achieve.',
        'Behind each result is a real person, and it is their progress that matters most.',
        'Results like these provide a firm foundation for the next stage of our work.',
      ],
    },
    action: {
      invite: (org) =>
        `We invite funders, partners and community leaders to join ${org.mid} in sustaining and extending this work.`,
      contact: (who) => `To discuss how you can help, please contact ${who}.`,
      website: (url) => `Further information is available at ${url}.`,
      closing: () => 'Together, we can ensure that this work continues to make a lasting difference.',
      fillers: [
        'Sustained support makes it possible to plan with confidence and to respond as need grows.',
        'Every contribution, whether of funding, expertise or time, strengthens our ability to deliver lasting results.',
        'Partnership of this kind turns shared intentions into measurable progress.',
      ],
    },
  },
  conversational: {
    opening: {
      toMission: (org) => `At ${org.mid}, we're here to`,
      lead: (org) => ({
        phrase: `At ${org.mid}, our purpose is simple:`,
        sentence: `At ${org.mid}, our purpose is simple, and it's worth saying up front.`,
      }),
      fillers: [
        "It's the reason we get up in the morning, and it guides every choice we make.",
        'We think the best way to explain it is to show you what it looks like in practice.',
        "So here's a little more about who we serve, what we do and what's changing because of it.",
      ],
    },
    context: {
      audience: lead('We focus on the people who need us most:'),
      place: lead("Here's where we do our work:"),
      general: 'In every community, there are people who fall through the cracks, and we think they deserve better.',
      fillers: [
        "When you get to know the people behind the need, it's clear how much the right support at the right moment can change.",
        'Nobody should have to face these challenges alone.',
        "That's why we keep listening, learning and showing up.",
      ],
    },
    programs: {
      lead: lead("So what do we actually do? Here's the short version:"),
      fillers: [
        'Every one of these is built around the people we serve, not the other way around.',
        'We want each service to feel practical, welcoming and genuinely useful.',
        "And we're always asking how we can do it a little better.",
      ],
    },
    impact: {
      lead: lead("And here's the part we're proudest of:"),
      fillers: [
        "Behind every one of those results is a real person, and that's what keeps us going.",
        "We're proud of that progress, and we know there's still more to do.",
        "Numbers only tell part of the story, but they're a pretty good place to start.",
      ],
    },
    action: {
      invite: () => "We'd love for you to be part of what comes next.",
      website: (url) => `You can find out more at ${url}.`,
      closing: (org) => `Come and join us at ${org.mid}, because this is work we can do better together.`,
      fillers: [
        "Whether you give, volunteer or simply spread the word, you'll be helping more people get the support they need.",
        'Every bit of help adds up, and it really does make a difference.',
        "You don't have to do everything; you just have to do something.",
      ],
    },
  },
  passionate: {
    opening: {
      toMission: (org) => `Every day, ${org.mid} works with heart and determination to`,
      lead: (org) => lead(`${org.start} is driven by a purpose that matters deeply:`),
      fillers: [
        'This is not simply what we do; it is who we are.',
        'That purpose fuels every hour of effort and every hard-won step forward.',
        'And it is a purpose that cannot wait, because the people it serves cannot wait either.',
      ],
    },
    context: {
      audience: lead('Our hearts are with the people who need us most:'),
      place: lead('This is where we stand and serve:'),
      general:
        'Too many people are left without the support they need, and every one of them deserves to be seen, heard and helped.',
      fillers: [
        'Their needs are real and pressing, and they cannot be put off for another day.',
        'Every person deserves the chance to thrive, and too many are still waiting for it.',
        'That is the need that calls us to act.',
      ],
    },
    programs: {
      lead: lead('We answer that need with action, not just words:'),
      fillers: [
        'Each program is an act of hope, offered with care and a deep belief in what people can achieve.',
        'Every service we offer is built to meet people where they are and help them move forward.',
        'This is compassion made practical, day after day.',
      ],
    },
    impact: {
      lead: lead('And the difference is real:'),
      fillers: [
        'Each result stands for a real person and a real step forward.',
        'These are not just outcomes; they are proof that hope, put into action, changes lives.',
        'Every achievement is a reason to keep going and to reach even further.',
      ],
    },
    action: {
      invite: (org) => `Now is the time to stand with ${org.mid}.`,
      website: (url) => `Discover more and get involved at ${url}.`,
      closing: () => 'Join us today, and let us make this change real and lasting together.',
      fillers: [
        'Your support can turn hope into lasting change for people who are counting on it.',
        'Every gift, every hour and every voice brings us closer to the future this work is reaching for.',
        'Together, we are stronger than any challenge in front of us.',
      ],
    },
  },
  academic: {
    opening: {
      toMission: (org) => `The stated mission of ${org.mid} is to`,
      lead: (org) => lead(`The work of ${org.mid} is organized around a clearly articulated mission:`),
      fillers: [
        "This mission provides the framework against which the organization's activities and outcomes may be understood.",
        'It also establishes the criteria by which the value of the work can reasonably be judged.',
        'The discussion that follows considers the context of need, the design of the programs, the evidence of their effect and the case for continued support.',
      ],
    },
    context: {
      audience: {
        phrase: 'The population served by the organization is defined as follows:',
        sentence: 'The population served by the organization is clearly defined.',
      },
      place: {
        phrase: 'The geographic scope of the work is specified as follows:',
        sentence: 'The geographic scope of the work is specified explicitly.',
      },
      general:
        'In many settings, existing provision does not fully meet the needs of every group, which provides a clear rationale for targeted intervention.',
      fillers: [
        'Defining the population and setting in this way allows services to be matched to identified need.',
        'Such precision is a precondition for the meaningful assessment of outcomes.',
        'It also clarifies where further support is likely to have the greatest effect.',
      ],
    },
    programs: {
      lead: lead('The organization responds to this need through a defined set of activities:'),
      fillers: [
        'These activities may be understood as a coordinated response to the needs identified above.',
        'Their design reflects an intention to address both immediate circumstances and longer-term outcomes.',
        'Each activity can, in principle, be examined for its particular contribution to the overall mission.',
      ],
    },
    impact: {
      lead: {
        phrase: 'The available evidence points to the following outcomes:',
        sentence: 'The available evidence points to measurable outcomes.',
      },
      fillers: [
        "Taken together, these results indicate a meaningful contribution to the organization's stated aims.",
        'Continued measurement would allow these findings to be tested and refined over time.',
        'While no single indicator captures the full effect of the work, the pattern of results is encouraging.',
      ],
    },
    action: {
      invite: () =>
        'The evidence summarized here suggests that continued support would allow this work to be sustained and further evaluated.',
      website: (url, org) => `Further information about ${org.mid} is available at ${url}.`,
      closing: () =>
        'Readers are invited to consider how they might contribute to the continued development of this work.',
      fillers: [
        'Partnerships with funders, practitioners and researchers would strengthen both delivery and the evidence base.',
        'Sustained investment would also allow longer-term outcomes to be observed and documented.',
        'Such support represents a considered response to a clearly identified need.',
      ],
    },
  },
}

// Paragraph order is opening, context, programs, impact, call to action; padding fills the middle first.
const PADDING_ORDER = [1, 2, 3, 0, 4]
const FIELD_KEYS: FieldKey[] = ['mission', 'audience', 'place', 'programs', 'impact']

type Draft = { voice: Voice; org: OrganizationName; fields: Fields; contact: string | null; website: string | null }

export function draftNarrative(input: NarrativeInput): string {
  const vocabulary = collectLowercaseWords(input)
  const draft: Draft = {
    voice: VOICES[input.selectedTone ?? 'professional'],
    org: nameOrganization(input.company),
    fields: {
      mission: parseField(input.missionStatement, vocabulary),
      audience: parseField(input.targetAudience, vocabulary),
      place: parseField(input.geographicFocus, vocabulary),
      programs: parseField(input.keyPrograms, vocabulary),
      impact: parseField(input.impactMetrics, vocabulary),
    },
    contact: describeContact(input),
    website: cleanWebsite(input.website),
  }
  trimFieldsToFit(draft)
  return renderDraft(draft, chooseFillerCounts(draft)).join('\n\n')
}

function trimFieldsToFit(draft: Draft): void {
  // A field alone longer than the target would be cut at least this far anyway: cutting it first keeps
  // the loop below short however many sentences were pasted in.
  for (const key of FIELD_KEYS) {
    let content = draft.fields[key]
    if (content?.kind === 'sentences') content = { kind: 'sentences', sentences: firstSentencesPast(content.sentences, TRIM_TARGET) }
    while (content && canTrim(content) && countWords(contentText(content)) > 2 * TRIM_TARGET) content = trimContent(content)
    draft.fields[key] = content
  }
  const noFillers = [0, 0, 0, 0, 0]
  const measure = () => countWords(renderDraft(draft, noFillers).join(' '))
  const fieldWords = Object.fromEntries(FIELD_KEYS.map((key) => [key, wordsOf(draft.fields[key])])) as Record<FieldKey, number>
  let total = measure()
  while (total > TRIM_TARGET) {
    const key = pickLongestTrimmableField(draft.fields, fieldWords)
    if (!key) return
    const content = draft.fields[key]!
    draft.fields[key] = trimContent(content)
    // Each field is written once, word for word: dropping a whole sentence takes exactly its words out
    // of the draft. A shortened sentence may change its lead-in, so the draft is measured again.
    if (content.kind === 'sentences' && content.sentences.length > 1) {
      const dropped = countWords(content.sentences.at(-1)!)
      fieldWords[key] -= dropped
      total -= dropped
    } else {
      fieldWords[key] = wordsOf(draft.fields[key])
      total = measure()
    }
  }
}

function wordsOf(content: Content | null): number {
  return content ? countWords(contentText(content)) : 0
}

/** The shortest run of leading sentences with more than `words` words (all of them if there is none). */
function firstSentencesPast(sentences: string[], words: number): string[] {
  let total = 0
  const index = sentences.findIndex((sentence) => (total += countWords(sentence)) > words)
  return index === -1 ? sentences : sentences.slice(0, index + 1)
}

function pickLongestTrimmableField(fields: Fields, fieldWords: Record<FieldKey, number>): FieldKey | null {
  let longest: FieldKey | null = null
  let longestWords = 0
  for (const key of FIELD_KEYS) {
    const content = fields[key]
    if (!content || !canTrim(content)) continue
    const words = fieldWords[key]
    if (words > longestWords) [longest, longestWords] = [key, words]
  }
  return longest
}

function chooseFillerCounts(draft: Draft): number[] {
  const counts = [0, 0, 0, 0, 0]
  let total = countWords(renderDraft(draft, counts).join(' '))
  for (let rank = 0; rank < 3; rank++) {
    for (const paragraph of PADDING_ORDER) {
      if (total >= PAD_TARGET) return counts
      const filler = fillersOf(draft.voice)[paragraph][rank]
      if (counts[paragraph] !== rank || total + countWords(filler) > TRIM_TARGET) continue
      counts[paragraph]++
      total += countWords(filler)
    }
  }
  return counts
}

function fillersOf(voice: Voice): string[][] {
  return [
    voice.opening.fillers,
    voice.context.fillers,
    voice.programs.fillers,
    voice.impact.fillers,
    voice.action.fillers,
  ]
}

function renderDraft(draft: Draft, fillerCounts: number[]): string[] {
  const fillers = fillersOf(draft.voice).map((list, index) => list.slice(0, fillerCounts[index]))
  const paragraphs = [
    [...writeOpening(draft), ...fillers[0]],
    [...writeContext(draft), ...fillers[1]],
    [...introduce(draft.voice.programs.lead, draft.fields.programs), ...fillers[2]],
    [...introduce(draft.voice.impact.lead, draft.fields.impact), ...fillers[3]],
    writeCallToAction(draft, fillers[4]),
  ]
  return paragraphs.map((sentences) => sentences.join(' '))
}

function writeOpening({ voice, org, fields }: Draft): string[] {
  const mission = fields.mission
  if (!mission) return [voice.opening.lead(org).sentence]
  const [first, ...rest] = mission.kind === 'phrase' ? [mission.text] : mission.sentences
  const purpose = first.match(/^(?:[^.!?]{0,80}?\bmission\s+is\s+)?to\s+(?!date\b)(\S[\s\S]*)$/i)
  if (purpose) return [ensureEnding(`${voice.opening.toMission(org)} ${purpose[1]}`), ...rest]
  // A mission that already names the organization opens the narrative by itself, without repeating the name.
  if (startsWithName(first, org)) return [ensureEnding(capitalizeFirst(first)), ...rest]
  return introduce(voice.opening.lead(org), mission)
}

function startsWithName(sentence: string, org: OrganizationName): boolean {
  return sentence.toLowerCase().startsWith(`${org.mid.toLowerCase()} `)
}

function writeContext({ voice, fields }: Draft): string[] {
  const sentences = [
    ...introduce(voice.context.audience, fields.audience),
    ...introduce(voice.context.place, fields.place),
  ]
  return sentences.length > 0 ? sentences : [voice.context.general]
}

function writeCallToAction({ voice, org, contact, website }: Draft, fillers: string[]): string[] {
  const action = voice.action
  return [
    action.invite(org),
    ...fillers,
    ...(contact && action.contact ? [action.contact(contact)] : []),
    ...(website ? [action.website(website, org)] : []),
    action.closing(org),
  ]
}

function introduce(lead: Lead, content: Content | null): string[] {
  if (!content) return []
  if (content.kind === 'phrase') return [ensureEnding(`${lead.phrase} ${content.text}`)]
  return [lead.sentence, ...content.sentences]
}

function nameOrganization(company: string | undefined): OrganizationName {
  const name = company?.trim()
  return name ? { start: name, mid: name } : { start: 'Our organization', mid: 'our organization' }
}

function describeContact(input: NarrativeInput): string | null {
  const primary = [input.contactName1, input.contactTitle1, input.contactEmail1, input.contactPhone1]
  const secondary = [input.contactName2, input.contactTitle2, input.contactEmail2, input.contactPhone2]
  return describePerson(primary) ?? describePerson(secondary)
}

function describePerson(parts: Array<string | undefined>): string | null {
  const [name, title, email, phone] = parts.map((part) => shortenText(part?.trim() ?? '', SHORT_DETAIL_WORDS))
  const reach = [email, phone].filter(Boolean).join(' or ')
  if (!name) return reach ? `us at ${reach}` : null
  const who = title ? `${name}, ${title}` : name
  return reach ? `${who}${title ? ',' : ''} at ${reach}` : who
}

function cleanWebsite(website: string | undefined): string | null {
  const url = website?.trim().split(/\s+/)[0] ?? ''
  return url.replace(/[/.,;:]+$/, '') || null
}

// ---- Reading the user's text ----

const BULLET = /^\s*(?:[-*•‣◦▪–—+]|\(?\d{1,2}[.)])\s+/
const LIST_ITEM_MAX_WORDS = 12
const ABBREVIATIONS = new Set('e.g i.e etc dr mr mrs ms st inc co ltd jr sr vs no approx u.s u.k mt'.split(' '))
// Words that are safe to lowercase when a phrase starts mid-sentence; anything else might be a name.
const COMMON_WORDS = new Set(
  (
    'a an the our we us they their this these those its it each every all any many most more some several over under ' +
    'about across after around at before by during for from in into of on since through to with within without ' +
    'and or but to providing offering serving helping supporting ensuring building creating delivering ending ' +
    'low high young older old local rural urban small large new underserved vulnerable ' +
    'families children kids youth young adults seniors elders students women men girls boys people individuals ' +
    'communities community residents neighbors neighbours parents veterans workers refugees immigrants patients ' +
    'one free weekly daily monthly annual summer mobile home family food meals meal housing job jobs career health ' +
    'mental medical legal financial emergency school schools reading tutoring mentoring counselling counseling ' +
    'training education literacy nutrition clean safe affordable peer parent adult child support case volunteer ' +
    'volunteers workshops classes programs services outreach advocacy research shelter transportation clinics ' +
    'clinic water wells scholarships grants technical digital employment after-school college ' +
    'help end build improve provide support create connect bring give make serve feed protect promote advance ' +
    'strengthen inspire equip empower transform reduce prevent increase expand restore teach train ' +
    'two three four five six seven eight nine ten twenty thirty forty fifty hundred hundreds thousand thousands'
  ).split(' ')
)

function parseField(value: string | undefined, vocabulary: Set<string>): Content | null {
  const units = groupLines(splitLines(value ?? ''), vocabulary)
  if (units.length === 0) return null
  // A phrase follows a lead ending in a colon, so it must not bring a colon of its own.
  if (units.length === 1 && splitSentences(units[0]).length === 1 && !units[0].includes(':')) {
    return { kind: 'phrase', text: ensureEnding(lowercaseFirstIfSafe(units[0], vocabulary)) }
  }
  const sentences = units.flatMap((unit) => splitSentences(capitalizeFirst(unit)))
  return { kind: 'sentences', sentences: sentences.map(ensureEnding) }
}

function splitLines(value: string): Array<{ text: string; isItem: boolean }> {
  // Markdown headings carry no facts of their own, so they are dropped rather than woven in.
  return value
    .split(/\r?\n/)
    .filter((line) => !/^\s*#/.test(line))
    .map((line) => ({ text: stripMarkup(line.replace(BULLET, '')), isItem: BULLET.test(line) }))
    .filter((line) => line.text !== '')
}

function stripMarkup(line: string): string {
  return line.replace(/\*+/g, '').replace(/\s+/g, ' ').trim()
}

// Pasted lists become one list sentence, joined to the line that introduced them with a colon.
function groupLines(lines: Array<{ text: string; isItem: boolean }>, vocabulary: Set<string>): string[] {
  const units: string[] = []
  let items: string[] = []
  const flush = () => {
    if (items.length === 0) return
    const list = joinList(items.map((item, index) => (index === 0 ? item : lowercaseFirstIfSafe(item, vocabulary))))
    const previous = units.at(-1)
    if (previous?.endsWith(':')) units[units.length - 1] = `${previous} ${lowercaseFirstIfSafe(list, vocabulary)}`
    else units.push(list)
    items = []
  }
  for (const line of lines) {
    if (isListItem(line, lines.length)) items.push(line.text.replace(/[.;,]+$/, ''))
    else {
      flush()
      units.push(line.text)
    }
  }
  flush()
  return units
}

function isListItem(line: { text: string; isItem: boolean }, lineCount: number): boolean {
  if (line.isItem) return true
  return lineCount > 1 && !/[.!?:]["'”’)]*$/.test(line.text) && countWords(line.text) <= LIST_ITEM_MAX_WORDS
}

function joinList(items: string[]): string {
  if (items.length <= 1) return items.join('')
  const separator = items.some((item) => item.includes(',')) ? '; ' : ', '
  return `${items.slice(0, -1).join(separator)} and ${items.at(-1)}`
}

// Every pattern that ends in a run of characters starts only where that run starts (the lookbehind):
// otherwise a long run that fails to match ("!!!!…" with no space after it) is retried from each of
// its characters, which is quadratic in its length.
const SENTENCE_END = /(?<![.!?])[.!?]+["'”’)\]]*\s+(?=["'“‘(\[]?[A-Z0-9])/g
const TRAILING_JOINERS = /(?<![\s,;:–—-])[\s,;:–—-]+$/

function splitSentences(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  for (const match of text.matchAll(SENTENCE_END)) {
    // The word before the stop: back to the last space, never past the sentence's own start.
    const before = text.slice(Math.max(start, text.lastIndexOf(' ', match.index - 1) + 1), match.index)
    if (match[0].startsWith('.') && isAbbreviation(before)) continue
    sentences.push(text.slice(start, match.index + match[0].trimEnd().length))
    start = match.index + match[0].length
  }
  sentences.push(text.slice(start))
  return sentences.map((sentence) => sentence.trim()).filter(Boolean)
}

function isAbbreviation(word: string): boolean {
  const bare = word.toLowerCase().replace(/^[("'“‘]+/, '')
  return ABBREVIATIONS.has(bare) || /^[a-z]$/.test(bare)
}

function lowercaseFirstIfSafe(text: string, vocabulary: Set<string>): string {
  const [first, second = ''] = text.split(' ')
  const word = first.replace(/[^A-Za-z'’-]/g, '')
  if (!/^[A-Z][a-z'’-]*$/.test(word) || /^[A-Z]/.test(second)) return text
  const lower = word.toLowerCase()
  const known = COMMON_WORDS.has(lower) || COMMON_WORDS.has(lower.split('-')[0]) || vocabulary.has(lower)
  return known && word !== 'I' ? text.charAt(0).toLowerCase() + text.slice(1) : text
}

// Words the user wrote in lowercase somewhere are common words, so lowercasing them cannot hide a name.
function collectLowercaseWords(input: NarrativeInput): Set<string> {
  const text = [
    input.missionStatement,
    input.keyPrograms,
    input.impactMetrics,
    input.targetAudience,
    input.geographicFocus,
  ]
    .filter(Boolean)
    .join(' ')
  return new Set(text.match(/\b[a-z][a-z'’-]*/g) ?? [])
}

// Only an all-lowercase first word is capitalised, so a name like "iPad" or "eBay" keeps its spelling.
function capitalizeFirst(text: string): string {
  return /^[a-z][a-z'’-]*(?=[\s,.;:!?]|$)/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text
}

function ensureEnding(text: string): string {
  const trimmed = text.trim().replace(TRAILING_JOINERS, '')
  return /[.!?…]["'”’)\]]*$/.test(trimmed) ? trimmed : `${trimmed}.`
}

// ---- Trimming long inputs ----

function canTrim(content: Content): boolean {
  return content.kind === 'sentences'
    ? content.sentences.length > 1 || countWords(content.sentences[0]) > MIN_TRIMMED_WORDS
    : countWords(content.text) > MIN_TRIMMED_WORDS
}

function trimContent(content: Content): Content {
  if (content.kind === 'phrase') return { kind: 'phrase', text: shortenToward(content.text) }
  if (content.sentences.length > 1) return { kind: 'sentences', sentences: content.sentences.slice(0, -1) }
  return { kind: 'sentences', sentences: [shortenToward(content.sentences[0])] }
}

function contentText(content: Content): string {
  return content.kind === 'phrase' ? content.text : content.sentences.join(' ')
}

// Halving a long sentence converges quickly, and never below the point where it stops saying anything.
function shortenToward(sentence: string): string {
  const words = countWords(sentence)
  return shortenText(sentence, Math.max(MIN_TRIMMED_WORDS, Math.floor(words / 2)))
}

const DANGLING_WORDS = new Set([
  'and',
  'or',
  'but',
  'the',
  'a',
  'an',
  'of',
  'to',
  'in',
  'for',
  'with',
  'by',
  'on',
  'at',
  'from',
])

function shortenText(text: string, maxWords: number): string {
  const words = text.split(/\s+/).filter(Boolean)
  if (words.length <= maxWords) return text
  const clauseEnd = findClauseEnd(words, maxWords)
  let kept = words.slice(0, clauseEnd ?? maxWords)
  while (kept.length > 1 && DANGLING_WORDS.has(kept.at(-1)!.toLowerCase())) kept = kept.slice(0, -1)
  const joined = kept.join(' ').replace(TRAILING_JOINERS, '')
  return clauseEnd ? ensureEnding(joined) : `${joined}…`
}

// Prefer ending at a comma or semicolon in the second half, so the cut reads as a finished thought.
function findClauseEnd(words: string[], maxWords: number): number | null {
  for (let end = maxWords; end > Math.ceil(maxWords / 2); end--) {
    if (/[,;:]$/.test(words[end - 1])) return end
  }
  return null
}
