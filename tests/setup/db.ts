import { prisma } from '~/server/platform/db.server'
import { resetRateLimitsForTests } from '~/server/edge/rate-limit.server'

/** Empties every table, children first, so each test starts from a clean database. */
export async function resetDatabase() {
  await prisma.$transaction([
    prisma.narrative.deleteMany(),
    prisma.passwordReset.deleteMany(),
    prisma.session.deleteMany(),
    prisma.user.deleteMany(),
  ])
  globalThis.smtpSink.clear()
  resetRateLimitsForTests()
}
