import { prisma } from '~/server/platform/db.server'
import { cluster } from '~/server/cluster/cluster.server'
import { errorDetails, log } from '~/server/platform/logger.server'

const PURGE_EVERY_MS = 60 * 60 * 1000

export async function purgeExpiredCredentials() {
  const now = new Date()
  const [sessions, resets] = await prisma.$transaction([
    prisma.session.deleteMany({ where: { expiresAt: { lte: now } } }),
    prisma.passwordReset.deleteMany({ where: { expiresAt: { lte: now } } }),
  ])
  if (sessions.count || resets.count) log('info', 'credentials.purged', { sessions: sessions.count, resets: resets.count })
}

export function schedulePurges() {
  const purge = () =>
    Promise.all([purgeExpiredCredentials(), cluster().limits.purge()]).catch((error) =>
      log('error', 'credentials.purge_failed', errorDetails(error)),
    )
  void purge()
  setInterval(purge, PURGE_EVERY_MS).unref()
}
