import type { Prisma } from '@prisma/client'
import { prisma } from '~/server/platform/db.server'
import { getEnv } from '~/server/platform/env.server'
import { countGeneratingSql } from '~/server/narratives/narratives.server'

/** At most this many generations of one user run at once. */
export const MAX_RUNNING_GENERATIONS = 2

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

/**
 * Claims one generation for today in a single conditional UPDATE, so parallel requests can never
 * claim more than the limit, nor run more than MAX_RUNNING_GENERATIONS at once. Returns the claimed day.
 */
export async function claimQuota(tx: Prisma.TransactionClient, userId: string): Promise<string | null> {
  const day = utcDay()
  const limit = getEnv().DAILY_NARRATIVE_LIMIT
  const changed = await tx.$executeRaw`
    UPDATE "User"
    SET "quotaUsed" = CASE WHEN "quotaDay" = ${day} THEN "quotaUsed" + 1 ELSE 1 END, "quotaDay" = ${day}
    WHERE "id" = ${userId}
      AND (CASE WHEN "quotaDay" = ${day} THEN "quotaUsed" ELSE 0 END) < ${limit}
      AND ${countGeneratingSql(userId)} < ${MAX_RUNNING_GENERATIONS}`
  return changed === 1 ? day : null
}

/** Gives back a claimed generation, to the day it was claimed on (a refund after midnight is moot). */
export async function refundQuota(userId: string, day: string) {
  await prisma.$executeRaw`
    UPDATE "User" SET "quotaUsed" = MAX("quotaUsed" - 1, 0)
    WHERE "id" = ${userId} AND "quotaDay" = ${day}`
}
