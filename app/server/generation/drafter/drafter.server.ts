import type { NarrativeInput } from '~/shared/narrative-schema'
import { TONES } from '~/shared/tones'
import { countWords } from '~/shared/text'
import { gerundOf, shortName } from '~/server/generation/drafter/clauses.server'
import { readInput } from '~/server/generation/drafter/reading.server'
import { tag } from '~/server/generation/drafter/tagger.server'
import { PADDING_RANK, VOICES } from '~/server/generation/drafter/voices.server'
import { planFor, type FunderPlan } from '~/server/generation/drafter/funder-plan.server'
import type { Candidate, Contact, Context, Reading } from '~/server/generation/drafter/contract.server'
import type { FunderBrief } from '~/server/generation/engines/contract.server'

// The offline drafter (docs/spec.md#engines, docs/decisions/021): writes the narrative from
// the user's own facts when no model is configured. It plans before it writes: the inputs are read as
// structure (drafter/reading), each item becomes a sentence of its own (drafter/clauses), the tone's
// voice chooses the order, shapes, person and call to action (drafter/voices), and this file keeps the
// sentences that matter most within 300-400 words. Written for a funder's call, its plan
// (drafter/funder-plan) orders and weighs the facts by the call's priorities, the ask names the funder
// and the amount, and the call's word limit, when shorter, is kept. Deterministic, in process, linear in its input.

const MAX_WORDS = 390
const ENOUGH_WORDS = 365
/** A 390-word narrative is about 2,500 characters: long words (a compound, a web address) never make it more than this. */
const MAX_CHARACTERS = 5000

export function draftNarrative(input: NarrativeInput, brief: FunderBrief | null = null): string {
  const plan = brief ? planFor(input, brief, MAX_WORDS) : null
  const reading = plan ? plan.order(readInput(input)) : readInput(input)
  const tone = input.selectedTone ?? 'professional'
  const paragraphs = VOICES[tone](contextOf(reading, input, TONES.indexOf(tone), plan))
  return fit(plan ? plan.weigh(paragraphs) : paragraphs, plan?.maxWords ?? null)
    .map((sentences) => sentences.join(' '))
    .join('\n\n')
}

/**
 * The sentences of each paragraph that fit: required ones, then by rank, padding only while short.
 * Under a funder's shorter limit nothing is required: the ask comes first, then the opening and the
 * contact, the first facts, and only then the lead-ins, each kept only with something it leads into.
 */
function fit(paragraphs: Candidate[][], limit: number | null): string[][] {
  const most = limit ?? MAX_WORDS
  const enough = Math.round((most * ENOUGH_WORDS) / MAX_WORDS)
  const tier = ({ rank, lead }: Candidate) => (limit !== null && lead ? rank + 1.5 : rank)
  const all = paragraphs.flat()
  const kept = new Set<Candidate>()
  let total = 0
  let characters = 0
  const tiers = [...new Set(all.map(tier))].sort((a, b) => a - b)
  for (const rank of tiers) {
    for (const candidate of all) {
      if (tier(candidate) !== rank) continue
      if (rank >= PADDING_RANK && total >= enough) break
      const words = countWords(candidate.text)
      const required = rank <= 0 && limit === null
      if (!required && (total + words > most || characters + candidate.text.length > MAX_CHARACTERS)) continue
      kept.add(candidate)
      total += words
      characters += candidate.text.length + 1
    }
  }
  return paragraphs
    .map((paragraph) => {
      const sentences = paragraph.filter((candidate) => kept.has(candidate))
      const led = sentences.some((candidate) => !candidate.lead)
      return sentences.filter((candidate) => limit === null || led || !candidate.lead).map((candidate) => candidate.text)
    })
    .filter((paragraph) => paragraph.length > 0)
}

function contextOf(reading: Reading, input: NarrativeInput, toneIndex: number, plan: FunderPlan | null): Context {
  const purpose = purposeOf(reading)
  return {
    reading,
    name: nameOf(reading, input),
    purpose,
    purposing: purpose ? gerundOf(purpose) : null,
    programmeNames: reading.programmes.map(shortName).filter((name): name is string => name !== null),
    contact: describeContact(reading.contact, toneIndex),
    toneIndex,
    ask: plan?.ask ?? null,
    pick: (options, slot) => options[(reading.seed + slot * 7) % options.length],
  }
}

/** The name, with "the" where the user writes it so ("the Coastal Resilience Lab"). */
function nameOf(reading: Reading, input: NarrativeInput): string {
  if (!reading.name) return 'our organization'
  if (/^the\s/i.test(reading.name)) return reading.name
  const text = `${input.missionStatement ?? ''} ${input.keyPrograms ?? ''} ${input.impactMetrics ?? ''}`
  return text.toLowerCase().includes(`the ${reading.name.toLowerCase()}`) ? `The ${reading.name}` : reading.name
}

const PURPOSE =
  /^(?:[^.!?]{0,120}?\b(?:mission is|exists|works|aims|seeks|strives|is here|are here|wants|want)\s+)?to\s+(?!date\b)(\S[^.!?]*)$/i

/** The mission's aim as a verb phrase ("end hunger in Lane County"), when it states one. */
function purposeOf(reading: Reading): string | null {
  const first = reading.mission[0]
  if (!first) return null
  const match = PURPOSE.exec(first.text)
  if (!match) return null
  const purpose = match[1].replace(/[\s,;:]+$/, '')
  // After "to", so that "end hunger" reads as a verb and its object, not as a noun.
  const verb = tag(`to ${purpose}`)[1]
  return verb?.pos === 'VERB' || verb?.pos === 'AUX' ? purpose : null
}

/** The primary contact, as fully as the voice would give it: the professional letter gives title, email and phone. */
function describeContact(contact: Contact | null, toneIndex: number): string | null {
  if (!contact) return null
  const reach = (toneIndex === 0 ? [contact.email, contact.phone] : [contact.email || contact.phone]).filter(Boolean).join(' or ')
  if (toneIndex === 1 || toneIndex === 2) contact = { ...contact, title: '' }
  if (!contact.name) return reach ? `the team at ${reach}` : null
  const who = contact.title ? `${contact.name}, ${contact.title}` : contact.name
  return reach ? `${who}${contact.title ? ',' : ''} at ${reach}` : who
}
