import { prisma } from '~/server/platform/db.server'
import { resetRateLimitsForTests } from '~/server/edge/rate-limit.server'
import { settlePendingMail } from '~/server/accounts/email.server'

/** Empties every table, children first, so each test starts from a clean database. */
export async function resetDatabase() {
  // Mail a previous test asked for is sent before the sink is emptied, never into this test.
  await settlePendingMail()
  await prisma.$transaction([
    prisma.narrative.deleteMany(),
    prisma.passwordReset.deleteMany(),
    prisma.session.deleteMany(),
    prisma.user.deleteMany(),
  ])
  globalThis.smtpSink.clear()
  resetRateLimitsForTests()
}
