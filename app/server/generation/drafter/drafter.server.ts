import type { NarrativeInput } from '~/shared/narrative-schema'
import { DEFAULT_TONE, type Tone } from '~/shared/tones'
import { countWords, trimEndMatching } from '~/shared/text'
import { keyWords } from '~/shared/items'
import type { FunderBrief } from '~/server/generation/engines/contract.server'
import { FUNDER_LIMITS } from '~/shared/funder-schema'
import { byPriorities, planFor, type FunderPlan } from '~/server/generation/drafter/funder-plan.server'
import { inPerson, lowerFirst, nameInside, shortName, theySubject } from '~/server/generation/drafter/clauses.server'
import { readInput } from '~/server/generation/drafter/reading.server'
import { localise } from '~/server/generation/drafter/style.server'
import { tag } from '~/server/language/tagger.server'
import { NUMERAL_BRIDGES, VOICES } from '~/server/generation/drafter/voices.server'
import type { Candidate, Contact, Context, Item, Paragraph, Reading } from '~/server/generation/drafter/contract.server'

// The offline drafter (docs/decisions/021 and 033): deterministic for one input, brief and variation, linear in its input.

const MAX_WORDS = 390
/** A 390-word narrative is about 2,500 characters: long words (a compound, a web address) never make it more than this. */
const MAX_CHARACTERS = 5000

export type DraftOptions = {
  /** 0 the first arrangement; Regenerate asks for another, so the same inputs read differently. */
  variation?: number
}

export function draftNarrative(input: NarrativeInput, brief: FunderBrief | null = null, { variation = 0 }: DraftOptions = {}): string {
  const reading = readInput(input)
  const tone = input.selectedTone ?? DEFAULT_TONE
  const plan = brief ? planFor(input, reading, brief) : null
  const written = VOICES[tone](contextOf(reading, input, tone, brief, plan, variation))
  const paragraphs = plan ? byPriorities(weigh(written, plan), plan) : written
  const limit = Math.min(MAX_WORDS, brief?.maxWords ?? MAX_WORDS)
  // The bridges between sentences that open on a figure add a word or two: a draft then over is fitted to a little less.
  for (let budget = limit; ; budget -= 5) {
    const draft = fit(paragraphs, Math.max(budget, 1))
      .map((sentences) => bridgeNumerals(sentences, NUMERAL_BRIDGES[tone], reading).join(' '))
      .join('\n\n')
    if (countWords(draft) <= limit || budget <= 1) return draft
  }
}

/** The sentences of each paragraph that fit `limit` words: the draft's own, then every fact (briefly if need be), then connectives. */
function fit(paragraphs: Paragraph[], limit: number): string[][] {
  const all = paragraphs.flat()
  const chosen = new Map<Candidate, string>(all.filter((candidate) => candidate.rank <= 1).map((candidate) => [candidate, candidate.text]))
  const size = () => {
    let words = 0
    let characters = 0
    for (const text of chosen.values()) {
      words += countWords(text)
      characters += text.length + 1
    }
    return { words, characters }
  }
  const over = () => {
    const { words, characters } = size()
    return words > limit || characters > MAX_CHARACTERS
  }
  while (over() && giveWay(chosen)) {
    withoutOrphans(chosen)
  }
  renameProgrammes(all, chosen)
  for (const level of [2, 3]) {
    for (const candidate of all) {
      if (candidate.rank !== level || (candidate.follows && !chosen.has(candidate.follows))) continue
      const text = candidate.ask ? candidate.ask(keptNames(chosen)) : candidate.text
      if (!text) continue
      chosen.set(candidate, text)
      if (over()) chosen.delete(candidate)
    }
  }
  return paragraphs
    .map((paragraph) => paragraph.flatMap((candidate) => (chosen.has(candidate) ? [chosen.get(candidate)!] : [])))
    .filter((paragraph) => paragraph.length > 0)
}

/** Makes room: a fact told briefly, else the first to give way left out, else the draft's own sentences but its request. */
function giveWay(chosen: Map<Candidate, string>): boolean {
  let longest: Candidate | undefined
  for (const [candidate, text] of chosen) {
    if (candidate.brief && text !== candidate.brief && (!longest || countWords(text) > countWords(chosen.get(longest)!)))
      longest = candidate
  }
  if (longest) {
    chosen.set(longest, longest.brief!)
    return true
  }
  const facts = [...chosen.keys()].filter((candidate) => candidate.drop !== undefined)
  const victim = facts.sort((a, b) => b.drop! - a.drop!)[0] ?? [...chosen.keys()].filter((candidate) => candidate.role !== 'ask').at(-1)
  if (!victim) return false
  chosen.delete(victim)
  return true
}

/** A fact that points back at another ("Of those, 44 …") goes with it: alone, it points at nothing. */
function withoutOrphans(chosen: Map<Candidate, string>) {
  for (const candidate of [...chosen.keys()]) {
    let leader = candidate.follows
    while (leader && chosen.has(leader)) leader = leader.follows
    if (candidate.follows && leader) chosen.delete(candidate)
  }
}

function renameProgrammes(all: Candidate[], chosen: Map<Candidate, string>) {
  const names = keptNames(chosen)
  for (const candidate of all) if (candidate.ask && chosen.has(candidate)) chosen.set(candidate, candidate.ask(names) ?? '')
}

function keptNames(chosen: Map<Candidate, string>): string[] {
  const names = [...chosen.keys()].flatMap((candidate) =>
    candidate.role === 'programme' && candidate.item ? [shortName(candidate.item)] : [],
  )
  return [...new Set(names.filter((name): name is string => name !== null))]
}

/** No two sentences in a row open on a figure: the second is given a bridge of the voice's. */
function bridgeNumerals(sentences: string[], bridges: string[], reading: Reading): string[] {
  let previous = false
  let used = 0
  return sentences.map((sentence) => {
    const numeral = /^[\d$£€]/.test(sentence)
    const bridged =
      numeral && previous ? `${localise(bridges[(reading.seed + used++) % bridges.length], reading.style)} ${sentence}` : sentence
    previous = numeral && bridged === sentence
    return bridged
  })
}

function contextOf(
  reading: Reading,
  input: NarrativeInput,
  tone: Tone,
  brief: FunderBrief | null,
  plan: FunderPlan | null,
  variation: number,
): Context {
  const say = (text: string) => localise(text, reading.style)
  const we = tone === 'conversational' || tone === 'passionate'
  // "the organization" is the drafter's word when the inputs give none; "the Center" is the organisation's own.
  const descriptor = reading.descriptor === 'the organization' ? say(reading.descriptor) : reading.descriptor
  const name = reading.name ? nameOf(reading, input) : we ? say('our organization') : descriptor
  const named = theySubject(name, reading.style.apostrophe)
  const described = theySubject(descriptor, reading.style.apostrophe)
  const rankOf = plan?.rankOf ?? new Map<Item, number>()
  const programmes = byPriority(reading.programmes, rankOf, 0)
  const results = byPriority(reading.results, rankOf, variation)
  // The aim in the voice's person: "give our members homes" is "give its members homes" in a report.
  const aim = purposeOf(reading)
  const purpose = aim && !we ? inPerson(aim, named) : aim
  return {
    reading,
    name,
    nameInside: nameInside(name),
    they: (index) => (index === 0 ? named : described),
    purpose,
    programmes,
    results,
    programmeNames: [...new Set(programmes.map(shortName).filter((short): short is string => short !== null))],
    contact: describeContact(reading.contact, tone),
    brief: brief && plan && { ...brief, funder: plan.funder },
    term: brief ? supportedTerm(reading, brief) : null,
    say,
    variation,
    pick: (options, slot) => options[(reading.seed + variation * 5 + slot * 7) % options.length],
  }
}

/** The items that answer a priority first, the most important priority first; the rest as the organisation ordered them. */
function byPriority(items: Item[], rankOf: Map<Item, number>, rotation: number): Item[] {
  // A result that leans on the one before it moves with it, as one.
  const units: Item[][] = []
  for (const item of items)
    if (item.leans && units.length) units.at(-1)!.push(item)
    else units.push([item])
  const rotated = units.length > 1 && rotation % 2 === 1 ? [units[1], units[0], ...units.slice(2)] : units
  return rotated
    .map((unit, index) => ({ unit, index, rank: rankOf.get(unit[0]) ?? Number.MAX_SAFE_INTEGER }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .flatMap(({ unit }) => unit)
}

/** For a funder: no sentence on a priority the inputs do not back (the request aside); facts answering a priority give way last. */
function weigh(paragraphs: Paragraph[], plan: FunderPlan): Paragraph[] {
  return paragraphs.map((paragraph) =>
    paragraph.flatMap((candidate) => {
      if (candidate.role === 'ask') return [candidate]
      if (plan.strays(candidate.text)) return []
      const place = candidate.item ? plan.rankOf.get(candidate.item) : undefined
      // In place: a connective that follows this fact holds this very candidate.
      if (place !== undefined && candidate.drop !== undefined) candidate.drop = place - FUNDER_LIMITS.priorities + candidate.drop / 1000
      return [candidate]
    }),
  )
}

function supportedTerm(reading: Reading, brief: FunderBrief): string | null {
  const used = new Set(
    [...reading.mission, ...reading.programmes, ...reading.results, ...reading.audience].flatMap((item) => keyWords(item.text)),
  )
  const term = brief.terms.slice(0, 20).find((candidate) => {
    const words = keyWords(candidate)
    return words.length > 0 && words.every((word) => used.has(word))
  })
  return term ? lowerFirst(term.trim()) : null
}

/** The name, with "the" where the user writes it so ("the Coastal Resilience Lab"). */
function nameOf(reading: Reading, input: NarrativeInput): string {
  const name = reading.name!
  if (/^the\s/i.test(name)) return name
  const text = `${input.missionStatement ?? ''} ${input.keyPrograms ?? ''} ${input.impactMetrics ?? ''}`.slice(0, 5000)
  return text.toLowerCase().includes(`the ${name.toLowerCase()}`) ? `The ${name}` : name
}

const PURPOSE =
  /^(?:[^.!?]{0,120}?\b(?:mission is|exists|works|aims|seeks|strives|is here|are here|wants|want)\s+)?to\s+(?!date\b)(\S[^.!?]*)$/i

function purposeOf(reading: Reading): string | null {
  const first = reading.mission[0]
  if (!first) return null
  const match = PURPOSE.exec(first.text)
  if (!match) return null
  const purpose = trimEndMatching(match[1], /[\s,;:]/)
  // After "to", so that "end hunger" reads as a verb and its object, not as a noun.
  const verb = tag(`to ${purpose}`)[1]
  return verb?.pos === 'VERB' || verb?.pos === 'AUX' ? purpose : null
}

/** The primary contact, as fully as the voice would give it: the professional letter gives title, email and phone. */
function describeContact(contact: Contact | null, tone: Tone): string | null {
  if (!contact) return null
  const reach = (tone === 'professional' ? [contact.email, contact.phone] : [contact.email || contact.phone]).filter(Boolean).join(' or ')
  if (tone === 'conversational' || tone === 'passionate') contact = { ...contact, title: '' }
  if (!contact.name) return reach ? `the team at ${reach}` : null
  const who = contact.title ? `${contact.name}, ${contact.title}` : contact.name
  return reach ? `${who}${contact.title ? ',' : ''} at ${reach}` : who
}
