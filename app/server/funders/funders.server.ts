import { type Funder, lockInvariant, prisma } from '~/server/platform/db.server'
import { log } from '~/server/platform/logger.server'
import type { Viewer } from '~/server/narratives/access.server'
import type { BriefAsWritten } from '~/server/narratives/alignment.server'
import type { ForFunder } from '~/server/narratives/narratives.server'
import type { FunderBrief } from '~/server/generation/engines/contract.server'
import { understandCall } from '~/server/funders/understand.server'
import {
  FUNDER_LIMITS,
  type CallQuestion,
  callQuestion,
  type QuestionInput,
  type CallReading,
  type FunderCreate,
  type FunderUpdate,
  type Priority,
  type PriorityMove,
} from '~/shared/funder-schema'
import { RefusedError } from '~/server/platform/refused-error.server'

// Funder briefs (docs/decisions/030): a user's own, reused for many narratives. Every read and write is
// scoped to the owner, administrators included: a brief is a working document, not a record to oversee.

export class FunderLimitError extends RefusedError<403> {
  constructor() {
    super(`You keep ${FUNDER_LIMITS.saved} funder briefs, the most one account can. Delete some to make room for new ones.`, 403)
  }
}

/** About the form's `funderId`, which a page names in its own words. */
export class FunderNotFoundError extends RefusedError<400> {
  constructor(message = 'funderId names no funder brief of yours') {
    super(message, 400, undefined, 'funderId')
  }
}

export function listFunders(viewer: Viewer) {
  return prisma.funder.findMany({
    where: { userId: viewer.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    omit: { callText: true },
    take: FUNDER_LIMITS.saved,
  })
}

/** What a page's brief select shows, read on every dashboard visit: in raw SQL (decision 006). */
export function listFunderChoices(viewer: Viewer) {
  return prisma.$queryRaw<Pick<Funder, 'id' | 'name' | 'deadline'>[]>`
    SELECT "id", "name", "deadline" FROM "Funder" WHERE "userId" = ${viewer.id}
    ORDER BY "createdAt" DESC, "id" DESC LIMIT ${FUNDER_LIMITS.saved}`
}

export function getFunder(viewer: Viewer, id: string) {
  return prisma.funder.findFirst({ where: { id, userId: viewer.id } })
}

/** What is not given is read from the call (by a model when one is configured). */
export async function createFunder(viewer: Viewer, input: FunderCreate & { source?: string }, signal?: AbortSignal) {
  const reading = await understandCall(input.callText, signal)
  const funder = await prisma.$transaction(async (tx) => {
    await lockInvariant(tx, 'funders')
    if ((await tx.funder.count({ where: { userId: viewer.id } })) >= FUNDER_LIMITS.saved) throw new FunderLimitError()
    return tx.funder.create({
      data: {
        userId: viewer.id,
        name: input.name,
        callText: input.callText,
        source: input.source ?? 'pasted',
        ...briefColumns({ ...fromReading(reading), ...definedOf(input) }),
      },
    })
  })
  log('info', 'funder.created', { userId: viewer.id, funderId: funder.id })
  return funder
}

/** A new call with no priorities given is read again. */
export async function updateFunder(viewer: Viewer, id: string, input: FunderUpdate, signal?: AbortSignal) {
  const current = await getFunder(viewer, id)
  if (!current) return null
  const reread = input.callText !== undefined && input.callText !== current.callText && input.priorities === undefined
  const reading = reread ? fromReading(await understandCall(input.callText!, signal)) : {}
  const { count } = await prisma.funder.updateMany({
    where: { id, userId: viewer.id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.callText !== undefined ? { callText: input.callText, ...(reread ? { source: 'pasted' } : {}) } : {}),
      ...briefColumns({ ...reading, ...definedOf(input) }),
    },
  })
  if (!count) return null
  log('info', 'funder.updated', { userId: viewer.id, funderId: id })
  return getFunder(viewer, id)
}

export type PriorityMoved =
  | { status: 'moved'; to: number; of: number }
  | { status: 'not-found' }
  /** The list is not the one the page showed: changed in another tab, or by a second press. */
  | { status: 'changed' }
  /** The first cannot go up, nor the last down. */
  | { status: 'at-end' }

/** Moves one priority, named by its place and text as the page showed them: if either no longer holds, or the list changed, none moves. */
export async function movePriority(viewer: Viewer, id: string, { index, direction, priority }: PriorityMove): Promise<PriorityMoved> {
  const funder = await getFunder(viewer, id)
  if (!funder) return { status: 'not-found' }
  const priorities = prioritiesOf(funder)
  if (priorities[index]?.text !== priority) return { status: 'changed' }
  const to = direction === 'up' ? index - 1 : index + 1
  if (to < 0 || to >= priorities.length) return { status: 'at-end' }
  const moved = [...priorities]
  ;[moved[index], moved[to]] = [moved[to], moved[index]]
  const { count } = await prisma.funder.updateMany({
    where: { id, userId: viewer.id, priorities: funder.priorities },
    data: { priorities: JSON.stringify(moved) },
  })
  if (!count) return (await getFunder(viewer, id)) ? { status: 'changed' } : { status: 'not-found' }
  log('info', 'funder.priority_moved', { userId: viewer.id, funderId: id })
  return { status: 'moved', to, of: moved.length }
}

/** The narratives written for it keep its name and the brief as written, and lose only the link. */
export async function deleteFunder(viewer: Viewer, id: string) {
  const deleted = await prisma.$transaction(async (tx) => {
    const { count } = await tx.funder.deleteMany({ where: { id, userId: viewer.id } })
    if (count) await tx.narrative.updateMany({ where: { userId: viewer.id, funderId: id }, data: { funderId: null } })
    return count === 1
  })
  if (deleted) log('info', 'funder.deleted', { userId: viewer.id, funderId: id })
  return deleted
}

type BriefFields = {
  priorities?: Priority[]
  questions?: QuestionInput[]
  terms?: string[]
  maxWords?: number | null
  deadline?: string | null
  amountMin?: number | null
  amountMax?: number | null
  currency?: string | null
}

function fromReading(reading: CallReading): BriefFields {
  return {
    priorities: reading.priorities,
    questions: reading.questions,
    terms: reading.terms,
    maxWords: reading.maxWords ?? null,
    deadline: reading.deadline ?? null,
    amountMin: reading.amountMin ?? null,
    amountMax: reading.amountMax ?? null,
    currency: reading.currency ?? null,
  }
}

function definedOf(input: BriefFields): BriefFields {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
}

function briefColumns(fields: BriefFields) {
  const { priorities, questions, terms, ...scalars } = fields
  return {
    ...scalars,
    ...(priorities ? { priorities: JSON.stringify(priorities) } : {}),
    ...(questions ? { questions: JSON.stringify(uniqueQuestions(questions.map(callQuestion))) } : {}),
    ...(terms ? { terms: JSON.stringify(terms) } : {}),
  }
}

/** A question asked twice is one question: its answers are found by its text. */
function uniqueQuestions(questions: CallQuestion[]): CallQuestion[] {
  const seen = new Set<string>()
  return questions.filter((question) => !seen.has(question.text) && seen.add(question.text))
}

export type FunderRecord = Omit<Funder, 'callText'> & { callText?: string }

export function prioritiesOf(funder: Pick<Funder, 'priorities'>): Priority[] {
  return JSON.parse(funder.priorities) as Priority[]
}

export function questionsOf(funder: Pick<Funder, 'questions'>): CallQuestion[] {
  return JSON.parse(funder.questions) as CallQuestion[]
}

export function termsOf(funder: Pick<Funder, 'terms'>): string[] {
  return JSON.parse(funder.terms) as string[]
}

/** A list's carries no `callText` (docs/api.md#funder-briefs). */
export function toApiFunder(funder: FunderRecord) {
  return {
    id: funder.id,
    name: funder.name,
    ...(funder.callText !== undefined ? { callText: funder.callText } : {}),
    source: funder.source,
    priorities: prioritiesOf(funder),
    questions: questionsOf(funder),
    terms: termsOf(funder),
    maxWords: funder.maxWords,
    deadline: funder.deadline,
    amountMin: funder.amountMin,
    amountMax: funder.amountMax,
    currency: funder.currency,
    createdAt: funder.createdAt.toISOString(),
    updatedAt: funder.updatedAt.toISOString(),
  }
}

/** Throws FunderNotFoundError for a brief that is not theirs, or an amount asked of no funder. */
export async function forFunder(
  viewer: Viewer,
  { funderId, amountRequested }: { funderId?: string; amountRequested?: string },
): Promise<ForFunder | null> {
  if (!funderId) {
    if (amountRequested) throw new FunderNotFoundError('An amount requested needs a funder brief (funderId) to ask it of')
    return null
  }
  const funder = await getFunder(viewer, funderId)
  if (!funder) throw new FunderNotFoundError()
  const amount = amountRequested || null
  const brief: BriefAsWritten = {
    funder: funder.name,
    amount,
    priorities: prioritiesOf(funder).map((priority) => priority.text),
    terms: termsOf(funder),
    maxWords: funder.maxWords,
    questions: questionsOf(funder),
  }
  return { funderId: funder.id, funderName: funder.name, amountRequested: amount, deadline: funder.deadline, brief: JSON.stringify(brief) }
}

export function engineBrief(brief: BriefAsWritten): FunderBrief {
  return { funder: brief.funder, amount: brief.amount, priorities: brief.priorities, terms: brief.terms, maxWords: brief.maxWords }
}
