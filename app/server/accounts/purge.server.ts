import { prisma } from '~/server/platform/db.server'
import { errorDetails, log } from '~/server/platform/logger.server'

const PURGE_EVERY_MS = 60 * 60 * 1000

/** Deletes sessions, API tokens and reset or invitation links past their expiry: they can never be used again. */
export async function purgeExpiredCredentials() {
  const now = new Date()
  const [sessions, resets] = await prisma.$transaction([
    prisma.session.deleteMany({ where: { expiresAt: { lte: now } } }),
    prisma.passwordReset.deleteMany({ where: { expiresAt: { lte: now } } }),
  ])
  if (sessions.count || resets.count) log('info', 'credentials.purged', { sessions: sessions.count, resets: resets.count })
}

/** Purges at start-up and then hourly, without keeping the process alive for it. */
export function schedulePurges() {
  const purge = () => purgeExpiredCredentials().catch((error) => log('error', 'credentials.purge_failed', errorDetails(error)))
  void purge()
  setInterval(purge, PURGE_EVERY_MS).unref()
}
