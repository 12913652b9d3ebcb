import { Prisma } from '@prisma/client'
import { prisma } from '~/server/platform/db.server'
import { log } from '~/server/platform/logger.server'
import { hashPassword } from '~/server/accounts/password.server'

export class EmailTakenError extends Error {
  constructor() {
    super('An account with this email already exists')
  }
}

type NewUser = {
  email: string
  firstName: string
  lastName: string
  password: string
  marketingConsent?: boolean
}

/** Creates an account; the very first account becomes the administrator. */
export async function createUser({ email, firstName, lastName, password, marketingConsent }: NewUser) {
  const now = new Date()
  const passwordHash = await hashPassword(password)
  try {
    const user = await prisma.user.create({
      data: {
        email: email.toLowerCase(),
        firstName,
        lastName,
        passwordHash,
        termsAcceptedAt: now,
        marketingConsentAt: marketingConsent ? now : null,
      },
      select: { id: true },
    })
    await promoteIfFirstUser(user.id)
    log('info', 'auth.signup', { userId: user.id })
    return prisma.user.findUniqueOrThrow({
      where: { id: user.id },
      select: { id: true, email: true, firstName: true, lastName: true, isAdmin: true },
    })
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw new EmailTakenError()
    throw error
  }
}

// One conditional statement, so two simultaneous first sign-ups cannot both become admin.
async function promoteIfFirstUser(userId: string) {
  await prisma.$executeRaw`
    UPDATE "User" SET "isAdmin" = 1
    WHERE "id" = ${userId} AND "id" = (SELECT "id" FROM "User" ORDER BY "rowid" LIMIT 1)`
}

export function listUsers() {
  return prisma.user.findMany({
    orderBy: { createdAt: 'asc' },
    select: { id: true, email: true, firstName: true, lastName: true, isAdmin: true, createdAt: true },
  })
}

export async function setAdmin(email: string, isAdmin: boolean): Promise<boolean> {
  const { count } = await prisma.user.updateMany({ where: { email: email.toLowerCase() }, data: { isAdmin } })
  if (count) log('info', isAdmin ? 'admin.granted' : 'admin.revoked', { email: email.toLowerCase() })
  return count === 1
}
