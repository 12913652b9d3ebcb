import { LIKE, lockInvariant, prisma, Prisma } from '~/server/platform/db.server'
import type { UserSummary } from '~/shared/user-summary'
import { getEnv } from '~/server/platform/env.server'
import { log } from '~/server/platform/logger.server'
import { hashPassword } from '~/server/accounts/password.server'
import { utcDay } from '~/server/usage/quota.server'
import { RefusedError } from '~/server/platform/refused-error.server'

export class EmailTakenError extends RefusedError<409> {
  constructor() {
    super('An account with this email already exists', 409, undefined, 'email')
  }
}

export const SIGNUPS_CLOSED = 'Sign-ups are closed on this site. Ask an administrator for an invitation.'

/** SIGNUPS=closed, and an account exists: nobody may sign themselves up. */
export class SignupsClosedError extends RefusedError<403> {
  constructor() {
    super(SIGNUPS_CLOSED, 403)
  }
}

/** Whether a visitor may create an account now: always with SIGNUPS=open, else only the first. */
export async function signupsOpen(): Promise<boolean> {
  if (getEnv().SIGNUPS === 'open') return true
  return (await prisma.user.findFirst({ select: { id: true } })) === null
}

type NewUser = {
  email: string
  firstName: string
  lastName: string
  password: string
  marketingConsent?: boolean
}

/** The first account becomes the administrator; with SIGNUPS=closed no other may be made (SignupsClosedError). */
export async function createUser({ email, firstName, lastName, password, marketingConsent }: NewUser) {
  if (!(await signupsOpen())) throw new SignupsClosedError()
  const now = new Date()
  const passwordHash = await hashPassword(password)
  try {
    // One sign-up at a time counts the accounts and adds its own: exactly one becomes the administrator.
    const user = await prisma.$transaction(async (tx) => {
      await lockInvariant(tx, 'accounts')
      const first = (await tx.user.count()) === 0
      if (!first && getEnv().SIGNUPS === 'closed') throw new SignupsClosedError()
      return tx.user.create({
        data: {
          email: email.toLowerCase(),
          firstName,
          lastName,
          passwordHash,
          isAdmin: first,
          termsAcceptedAt: now,
          marketingConsentAt: marketingConsent ? now : null,
        },
        select: { id: true, email: true, firstName: true, lastName: true, isAdmin: true },
      })
    })
    log('info', 'auth.signup', { userId: user.id })
    return user
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw new EmailTakenError()
    throw error
  }
}

export const USERS_PAGE_SIZE = 20

// SQLite answers expressions as integers (bigint through the driver), booleans as 0 or 1; PostgreSQL
// answers booleans and bigints.
type SummaryRow = Omit<UserSummary, 'isAdmin' | 'disabled' | 'invitationPending' | 'generationsToday' | 'generationsTotal'> & {
  isAdmin: number | boolean
  disabled: number | bigint
  invitationPending: number | bigint
  generationsToday: number | bigint
  generationsTotal: number | bigint
}

/** One statement for a page of accounts; the counts are kept on the account, so deleting a narrative gives none back. */
function selectSummaries(where: Prisma.Sql, limit?: number, offset = 0) {
  const page = limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${limit} OFFSET ${offset}`
  return prisma.$queryRaw<SummaryRow[]>`
    SELECT p."id", p."email", p."firstName", p."lastName", p."isAdmin", p."createdAt", p."dailyLimit",
      p."disabledAt" IS NOT NULL AS "disabled", p."passwordHash" IS NULL AS "invitationPending",
      CASE WHEN p."quotaDay" = ${utcDay()} THEN p."quotaUsed" ELSE 0 END AS "generationsToday", p."generationsTotal"
    FROM (SELECT * FROM "User" u WHERE ${where} ORDER BY u."createdAt", u."id" ${page}) p
    ORDER BY p."createdAt", p."id"`
}

function toSummary(row: SummaryRow): UserSummary {
  return {
    ...row,
    isAdmin: Boolean(row.isAdmin),
    disabled: Boolean(row.disabled),
    invitationPending: Boolean(row.invitationPending),
    generationsToday: Number(row.generationsToday),
    generationsTotal: Number(row.generationsTotal),
  }
}

/** Every word of the search in the email or a name, case-insensitively (ASCII); LIKE's wildcards taken literally. */
function searchWhere(query: string): Prisma.Sql {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5)
  if (!words.length) return Prisma.sql`TRUE`
  return Prisma.join(
    words.map((word) => {
      const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      return Prisma.sql`(u."email" ${LIKE} ${pattern} ESCAPE '\\' OR u."firstName" ${LIKE} ${pattern} ESCAPE '\\' OR u."lastName" ${LIKE} ${pattern} ESCAPE '\\')`
    }),
    ' AND ',
  )
}

/** Accounts matching `query`, oldest first: one page of them, or every one with no `limit`. */
export async function listUsers({ query = '', page = 1, limit }: { query?: string; page?: number; limit?: number } = {}) {
  const where = searchWhere(query)
  const [{ total }] = await prisma.$queryRaw<{ total: number | bigint }[]>`SELECT COUNT(*) AS "total" FROM "User" u WHERE ${where}`
  const pages = limit ? Math.max(1, Math.ceil(Number(total) / limit)) : 1
  const current = Math.min(Math.max(page, 1), pages)
  const rows = limit ? await selectSummaries(where, limit, (current - 1) * limit) : await selectSummaries(where)
  return { users: rows.map(toSummary), pagination: { page: current, pages, total: Number(total) } }
}

export async function getUserSummary(id: string): Promise<UserSummary | null> {
  const [row] = await selectSummaries(Prisma.sql`u."id" = ${id}`)
  return row ? toSummary(row) : null
}

/** The command line's grant and revoke (npm run admin): whoever runs it is the operator. */
export async function setAdmin(email: string, isAdmin: boolean): Promise<boolean> {
  const { count } = await prisma.user.updateMany({ where: { email: email.toLowerCase() }, data: { isAdmin } })
  if (count) log('info', isAdmin ? 'admin.granted' : 'admin.revoked', { email: email.toLowerCase(), actorId: 'cli' })
  return count === 1
}
