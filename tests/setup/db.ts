import { prisma } from '~/server/platform/db.server'
import { resetRateLimitsForTests } from '~/server/edge/rate-limit.server'
import { settlePendingMail } from '~/server/accounts/email.server'

/**
 * Empties every table the migrations made, so each test starts from a clean database whatever ran
 * before it: read from the database itself, so a new table is never forgotten.
 */
export async function resetDatabase() {
  // Mail a previous test asked for is sent before the sink is emptied, never into this test.
  await settlePendingMail()
  const tables = await prisma.$queryRaw<{ name: string }[]>`
    SELECT "name" FROM sqlite_master WHERE "type" = 'table' AND "name" NOT LIKE 'sqlite_%' AND "name" <> '_prisma_migrations'`
  await prisma.$transaction(tables.map(({ name }) => prisma.$executeRawUnsafe(`DELETE FROM "${name}"`)))
  globalThis.smtpSink.clear()
  resetRateLimitsForTests()
}
