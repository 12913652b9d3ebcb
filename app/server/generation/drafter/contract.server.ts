// The offline drafter's contract (docs/decisions/021): the inputs read as structure, the tagger's
// tokens, the subjects sentences are told about, and the ranked sentences a voice writes. The entry
// points are draftNarrative (drafter.server.ts) and draftVariant (variant-drafter.server.ts).

/** A word with its universal part-of-speech tag, its lower-case lemma and whether a space precedes it. */
export type Token = { text: string; pos: string; lemma: string; spaced: boolean }

/** How an item reads: a whole clause, or a piece that needs a subject or a verb to become one. */
export type Shape =
  | 'clause' // "We run 14 pantries", "Attendance rose to 95%"
  | 'participle' // "620 women agents trained, earning …": a subject and a participle, no auxiliary
  | 'headless' // "Drilling and repairing boreholes", "Run 14 pantries", "Trained 620 agents": no subject
  | 'infinitive' // "To end hunger in Lane County"
  | 'phrase' // "Weekend meal packs for school children who …": no main verb at all

export type Item = { text: string; tokens: Token[]; shape: Shape; figure: boolean; award: boolean }

export type Kind = 'research' | 'school' | 'co-operative' | 'arts' | 'enterprise' | 'charity'

export type Contact = { name: string; title: string; email: string; phone: string }

export type Reading = {
  name: string | null
  /** How the organisation is named after the first mention: "the food bank", "the lab". */
  descriptor: string
  kind: Kind
  mission: Item[]
  audience: Item[]
  places: Item[]
  programmes: Item[]
  results: Item[]
  awards: Item[]
  contact: Contact | null
  website: string | null
  /** Picks wording per organisation, so two organisations do not read the same. */
  seed: number
}

/** Who the sentences are about: "we", or the organisation in the third person. */
export type Subject = {
  we: boolean
  /** Opening a sentence: "We", "Lane County Food Share", "The food bank". */
  start: string
  /** Inside a sentence: "we", "the food bank". */
  mid: string
  /** A possessive opening a sentence: "Our", "The lab's". */
  possessive: string
}

/**
 * A sentence and how much it matters: 0 always, 1-3 facts and their framing, 4 and up padding; the ask
 * that names a funder (ASK_RANK) before all of them.
 */
export type Candidate = { text: string; rank: number; lead?: true }
export const ASK_RANK = -1
export type Paragraph = Candidate[]

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
  /** The tone's place among the four: it decides which long items this voice tells briefly. */
  toneIndex: number
  /** Written for a funder's call: whom the ask names ("the Lane County Community Foundation") and for how much. */
  ask: { funder: string; amount: string | null } | null
  /** Chooses one of several wordings, the same way every time for one organisation. */
  pick: (options: string[], slot: number) => string
}
