import type { NarrativeInput } from '~/shared/narrative-schema'
import { EVIDENCE, topicsOf } from '~/server/language/topics.server'
import { FUNDER_LIMITS } from '~/shared/funder-schema'
import { trimEndMatching } from '~/shared/text'
import { answersPriority, inputBacking, nameRemover } from '~/server/narratives/alignment.server'
import type { FunderBrief } from '~/server/generation/engines/contract.server'
import { capitalise, conjugated, core, lowerFirst } from '~/server/generation/drafter/clauses.server'
import { isParticiple, mainVerb } from '~/server/generation/drafter/reading.server'
import { probe, tag, untag, type Token } from '~/server/language/tagger.server'
import type { Candidate, Item, Paragraph, Reading } from '~/server/generation/drafter/contract.server'

// No sentence of the voice's own speaks to a priority the inputs do not back, so a gap stays a gap (docs/decisions/030 and 033).

export type FunderPlan = {
  /** The funder as a sentence names it: "the Lane County Community Foundation", "Acme Outfitters". */
  funder: string
  /** The place of the first backed priority an item answers (0 the most important), if any. */
  rankOf: Map<Item, number>
  /** How the facts answering each priority are led; null where no lead reads well. */
  leads: (Lead | null)[]
  /** Whether a sentence speaks to a priority the inputs do not back. */
  strays: (sentence: string) => boolean
}

/** A clause opening the first sentence that answers the priority ("To bring people together,"), or a sentence before it. */
export type Lead = { opening: string } | { sentence: string }

export function planFor(input: NarrativeInput, reading: Reading, brief: FunderBrief): FunderPlan {
  const backingOf = inputBacking(input, brief.funder)
  const priorities = brief.priorities
    .slice(0, FUNDER_LIMITS.priorities)
    .map((priority) => ({ priority, answers: answersPriority(priority), backed: backingOf(priority).length > 0 }))
  const withoutFunder = nameRemover(brief.funder)
  const rankOf = new Map<Item, number>()
  for (const item of [...reading.programmes, ...reading.results]) {
    const topics = itemTopics(item)
    const place = priorities.findIndex(({ answers, backed }) => backed && answers(topics))
    if (place >= 0) rankOf.set(item, place)
  }
  return {
    funder: asNamed(brief.funder),
    rankOf,
    leads: priorities.map(({ priority }) => leadOf(priority, asNamed(brief.funder))),
    strays: (sentence) => {
      const topics = topicsOf(withoutFunder(sentence))
      return priorities.some(({ answers, backed }) => !backed && answers(topics))
    },
  }
}

/** A result stating a figure speaks to a call's "measurable outcomes", as the alignment reads it. */
function itemTopics(item: Item): Set<string> {
  const topics = topicsOf(item.text)
  if (item.figure) topics.add(EVIDENCE)
  return topics
}

const INSTITUTION =
  /\b(?:foundation|fund|trust|council|department|ministry|agency|authority|commission|programme|program|office|institute|society|association|endowment|initiative|board|lottery)\b/i

/** "Lane County Community Foundation" → "the Lane County Community Foundation"; a company's name as it is. */
export function asNamed(funder: string): string {
  const name = funder.trim()
  if (/^the\s/i.test(name)) return `the ${name.slice(4)}`
  return INSTITUTION.test(name) ? `the ${name}` : name
}

/** The most words a lead may take: a priority longer than this, even cut at its first clause, leads nothing. */
const LEAD_WORDS = 18
/** "We fund projects that …", "Programs that …": what the call says of the work, not the work. */
const WORK_THAT =
  /^(?:(?:we|in [\p{L} ]+ we|the [\p{L} ]+|council)\s+(?:[\p{L}]+\s+)?(?:fund|support|welcome|consider|want|back)s?\s+)?(?:projects?|applications?|proposals?|activities|initiatives?|ideas?|programmes?|programs?)\s+(?:that|which)\s+(?:will\s+|can\s+|would\s+)?/iu
/** The call speaking of itself or the applicant: its "we" is not the organisation's, and no lead reads well from it. */
const ITS_OWN_VOICE = /\b(?:we|us|you|your|i)\b/i
/** Words that open a priority as a noun, though "to" before them would make them verbs: "people who …", "care leavers". */
const NOUNS_FIRST = new Set(['people', 'care', 'job', 'youth', 'family', 'work', 'access', 'health', 'housing', 'training', 'equipment'])

/** "bring people together" → "To bring people together,"; "care leavers" → "The Fund gives priority to care leavers."; else null. */
export function leadOf(priority: string, funder: string): Lead | null {
  let text = trimEndMatching(priority.trim(), /[\s.;:!?]/).replace(WORK_THAT, '')
  // "Education: literacy, STEM and …": the description when it is something to do, else the label.
  const colon = text.indexOf(':')
  if (colon > 0 && colon < 60) {
    const description = text.slice(colon + 1).trim()
    text = toDo(description) ? description : text.slice(0, colon)
  }
  text = text.replace(/\bour\b/gi, 'the')
  if (!text || ITS_OWN_VOICE.test(text)) return null
  // "get food to people who need it, whether by …" cut at "by": no word left pointing at what was cut.
  const told = trimEndMatching(core(text), /[\s,;:–—-]/).replace(
    /(?:[\s,]+(?:whether|and|or|of|for|to|with|the|a|an|in|on|by|that|which))+$/i,
    '',
  )
  if (told.split(/\s+/).length > LEAD_WORDS) return null
  const verb = toDo(told)
  if (verb) return { opening: `To ${verb},` }
  const tokens = tag(told)
  const main = mainVerb(tokens)
  if (ownSubject(tokens) || (main > 0 && !isParticiple(tokens[main])))
    return ['DET', 'PRON'].includes(tokens[0].pos) ? null : { opening: `So that ${lowerFirst(told)},` }
  if (main !== -1 || !['NOUN', 'ADJ', 'PROPN'].includes(tokens[0]?.pos)) return null
  return { sentence: `${capitalise(funder)} gives priority to ${lowerFirst(told)}.` }
}

/** A clause with a subject of its own ("Older adults live safely"): its main verb agrees with what comes before it. */
function ownSubject(tokens: Token[]): boolean {
  const at = mainVerb(tokens)
  const verb = tokens[at]
  // "show what works": a question word's clause is the object, not the priority's own.
  if (!verb || at === 0 || QUESTION_WORDS.has(tokens[at - 1].text.toLowerCase())) return false
  return /s$/.test(verb.text) ? verb.lemma !== verb.text.toLowerCase() : !isParticiple(verb) && !/ing$/i.test(verb.text)
}

const QUESTION_WORDS = new Set(['what', 'how', 'why', 'when', 'where', 'who', 'which', 'that'])

/** The phrase as something to do, its first word a verb's base ("Improving health" → "improve health"); null when it is not. */
function toDo(phrase: string): string | null {
  const tokens = tag(phrase)
  const first = tokens[0]
  if (!first || !/^\p{L}+$/u.test(first.text)) return null
  // "Explore and Create helps artists …" is a sentence about a programme, its name in capitals, not something to do.
  if (ownSubject(tokens) || /^\p{Lu}\p{Ll}+ (?:(?:and|&|of|the|a|your) )?\p{Lu}/u.test(phrase)) return null
  const word = first.text.toLowerCase()
  // "fixing or replacing equipment", "tackling inequality, building resilience": each gerund of the list a base.
  if (/..ing$/.test(word) && first.pos === 'VERB' && first.lemma !== word) return untag(conjugated(tokens, true))
  if (NOUNS_FIRST.has(word) || (/[^s]s$/.test(word) && first.lemma !== word)) return null
  // After "to", so that "support people facing hardship" reads as a verb and its object, not as a noun.
  const verb = probe(`to ${word} them`, 1)
  return verb?.pos === 'VERB' && verb.lemma === word ? lowerFirst(phrase) : null
}

/** After the opening, a paragraph for each priority the inputs answer, in the call's order, led by the priority. */
export function byPriorities(paragraphs: Paragraph[], plan: FunderPlan): Paragraph[] {
  const groups = new Map<number, Candidate[]>()
  const moved = new Set<Candidate>()
  for (const candidate of paragraphs.flat()) {
    const place = candidate.item && FACTS.has(candidate.role ?? '') && !candidate.follows ? plan.rankOf.get(candidate.item) : undefined
    if (place === undefined) continue
    groups.set(place, [...(groups.get(place) ?? []), candidate])
    moved.add(candidate)
  }
  // Then what leans on a fact that moved: a fact ("Of those, 44 …") follows it, a connective ("So what has changed?") goes.
  for (const candidate of paragraphs.flat()) {
    const leader = candidate.follows
    if (!leader || !moved.has(leader) || moved.has(candidate)) continue
    moved.add(candidate)
    if (candidate.rank > 1) continue
    const group = [...groups.values()].find((facts) => facts.includes(leader))!
    group.splice(group.indexOf(leader) + 1, 0, candidate)
  }
  const rest = paragraphs.map((paragraph) => paragraph.filter((candidate) => !moved.has(candidate)))
  const gathered = [...groups.entries()].sort(([a], [b]) => a - b).map(([place, group]) => led(group, plan.leads[place]))
  return [rest[0] ?? [], ...gathered, ...rest.slice(1)].filter((paragraph) => paragraph.length > 0)
}

const FACTS = new Set(['programme', 'result'])

/** The group led by its first sentence that can carry the lead: not one with "also", nor one told as written. */
function led(group: Candidate[], lead: Lead | null): Candidate[] {
  if (lead && 'sentence' in lead) return [{ text: lead.sentence, rank: 2, follows: group[0] }, ...group]
  const carrier = lead
    ? group.find((candidate) => !/\balso\b/i.test(candidate.text) && !candidate.item?.named && !candidate.follows)
    : undefined
  if (!carrier || !lead) return group
  const lowest = Math.min(...group.map((candidate) => candidate.drop ?? 0))
  const withLead = (text: string) => `${lead.opening} ${lowerFirst(text)}`
  const ledCarrier: Candidate = {
    ...carrier,
    text: withLead(carrier.text),
    brief: carrier.brief && withLead(carrier.brief),
    // The lead goes last of its group: what follows it adds to it.
    drop: lowest - 0.001,
  }
  // What leans on the carrier comes with it, and leans on it as led.
  const followers = group.filter((candidate) => candidate.follows === carrier)
  for (const follower of followers) follower.follows = ledCarrier
  return [ledCarrier, ...followers, ...group.filter((candidate) => candidate !== carrier && !followers.includes(candidate))]
}
