import { prisma } from './db.server'
import { getEnv } from './env.server'

/** Quotas reset at midnight UTC. */
export function utcDay(date = new Date()): string {
  return date.toISOString().slice(0, 10)
}

/** How many narratives the user may still generate today. */
export async function getRemainingQuota(userId: string): Promise<number> {
  const limit = getEnv().DAILY_NARRATIVE_LIMIT
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { quotaDay: true, quotaUsed: true } })
  const used = user?.quotaDay === utcDay() ? user.quotaUsed : 0
  return Math.max(0, limit - used)
}
