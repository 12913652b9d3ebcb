import type { FunderBrief } from '~/server/generation/engines/contract.server'
import type { Token } from '~/server/language/tagger.server'

// The offline drafter's contract (docs/decisions/021); its entry points are draftNarrative and draftVariant.

/** How an item reads: a whole clause, or a piece that needs a subject or a verb to become one. */
export type Shape =
  | 'clause' // "We run 14 pantries", "Attendance rose to 95%"
  | 'participle' // "620 women agents trained, earning …": a subject and a participle, no auxiliary
  | 'headless' // "Drilling and repairing boreholes", "Run 14 pantries", "Trained 620 agents": no subject
  | 'infinitive' // "To end hunger in Lane County"
  | 'phrase' // "Weekend meal packs for school children who …": no main verb at all

export type Item = {
  text: string
  tokens: Token[]
  shape: Shape
  figure: boolean
  award: boolean
  /** A place whose first word is its name ("Cork city"), never lower-cased. */
  keepCase?: boolean
  /** Written "Name: what it does": the name is a name, and the colon may become the verb it stood for. */
  named?: boolean
  /** A result that points back at the one before it ("Of those, 44 …", "That is about 4,300 meals a day"). */
  leans?: boolean
}

/** What the organisation is, as its inputs say: its name's last noun, or a word such as "charity" it uses of itself. */
export type Kind = 'research' | 'school' | 'co-operative' | 'arts' | 'enterprise' | 'public' | 'charity' | 'unknown'
/** Whom a request is put to in the organisation's own register: a company is not asked for gifts. */
export type Sector = 'for-profit' | 'public' | 'non-profit'

/** How the organisation writes, so the drafter's own words write the same way. */
export type Style = { spelling: 'uk' | 'us'; apostrophe: "'" | '’' }

export type Contact = { name: string; title: string; email: string; phone: string }

export type Reading = {
  name: string | null
  /** How the organisation is named after the first mention: "the food bank", "the lab", "the organisation". */
  descriptor: string
  kind: Kind
  sector: Sector
  mission: Item[]
  audience: Item[]
  places: Item[]
  programmes: Item[]
  results: Item[]
  awards: Item[]
  /** The success story or quote, as written (whole sentences, bounded). */
  story: string | null
  contact: Contact | null
  website: string | null
  style: Style
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
  /** Where "it" would end a sentence on a pronoun ("new to it"): "the food bank". `mid` when not given. */
  object?: string
}

/** A sentence and its rank: 0 the draft needs it, 1 a fact of the inputs, 2 and up connectives; `drop`: higher gives way first. */
export type Candidate = {
  text: string
  rank: number
  item?: Item
  role?: 'programme' | 'result' | 'story' | 'ask'
  brief?: string
  drop?: number
  /** The request (or a list of the programmes), written again with the programmes the draft kept; null: say nothing. */
  ask?: (names: string[]) => string | null
  /** A connective about a fact, kept only with it. */
  follows?: Candidate
}
export type Paragraph = Candidate[]

export type Context = {
  reading: Reading
  /** The organisation's name (or, without one, a descriptor) at its first mention in a paragraph. */
  name: string
  nameInside: string
  /** The organisation in the third person: its name for the first mention (0), its descriptor after. */
  they: (index: number) => Subject
  /** The mission's purpose as a verb phrase without "to" ("end hunger in Lane County"). */
  purpose: string | null
  /** The programmes and results in the order the draft tells them: a funder's priorities first. */
  programmes: Item[]
  results: Item[]
  /** Short names of the programmes, for lists and the request ("the weekend meal packs", "ShoreWatch"). */
  programmeNames: string[]
  contact: string | null
  brief: FunderBrief | null
  /** The first of the funder's terms the inputs support, if any. */
  term: string | null
  /** Writes the voice's own words in the organisation's spelling and apostrophe. */
  say: (text: string) => string
  /** Which arrangement of the draft this is: 0 the first; a regeneration asks for another. */
  variation: number
  /** Chooses one of several wordings, the same way every time for one organisation and arrangement. */
  pick: (options: string[], slot: number) => string
}
