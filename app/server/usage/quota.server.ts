import { lockInvariant, prisma, Prisma } from '~/server/platform/db.server'
import { getEnv } from '~/server/platform/env.server'
import { log } from '~/server/platform/logger.server'
import { MAX_RUNNING_GENERATIONS, refusal, type ClaimedGeneration, type QuotaRefusal } from '~/server/usage/contract.server'

/** Quotas reset at midnight UTC. */
export function utcDay(date = new Date()): string {
  return date.toISOString().slice(0, 10)
}

export function nextReset(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
}

/** The user's day: how many narratives they may still generate of their limit (their own, else the instance's), and when it resets. */
export async function getQuota(userId: string) {
  // Raw SQL: the dashboard reads it on every visit (decision 006).
  const [user] = await prisma.$queryRaw<{ quotaDay: string | null; quotaUsed: number | bigint; dailyLimit: number | bigint | null }[]>`
    SELECT "quotaDay", "quotaUsed", "dailyLimit" FROM "User" WHERE "id" = ${userId}`
  const used = user?.quotaDay === utcDay() ? Number(user.quotaUsed) : 0
  const limit = user?.dailyLimit != null ? Number(user.dailyLimit) : getEnv().DAILY_NARRATIVE_LIMIT
  return { remaining: Math.max(0, limit - used), limit, resetsAt: nextReset() }
}

export async function getRemainingQuota(userId: string): Promise<number> {
  return (await getQuota(userId)).remaining
}

/**
 * Claims one of today's generations in one conditional UPDATE, one claim at a time, so parallel requests never pass
 * a limit: the user's daily, being disabled, MAX_RUNNING_GENERATIONS, MAX_DAILY_GENERATIONS (0: none), MAX_SAVED_NARRATIVES.
 */
export async function claimQuota(tx: Prisma.TransactionClient, userId: string, { savesNarrative = true } = {}): Promise<string | null> {
  const day = utcDay()
  const { DAILY_NARRATIVE_LIMIT: limit, MAX_DAILY_GENERATIONS: instanceLimit, MAX_SAVED_NARRATIVES: savedLimit } = getEnv()
  // Held until `tx` ends, so the record the caller inserts is counted by the next claim.
  await lockInvariant(tx, 'claims')
  const changed = await tx.$executeRaw`
    UPDATE "User"
    SET "quotaUsed" = CASE WHEN "quotaDay" = ${day} THEN "quotaUsed" + 1 ELSE 1 END, "quotaDay" = ${day},
      "generationsTotal" = "generationsTotal" + 1
    WHERE "id" = ${userId}
      AND (CASE WHEN "quotaDay" = ${day} THEN "quotaUsed" ELSE 0 END) < COALESCE("dailyLimit", ${limit})
      AND "disabledAt" IS NULL
      AND ${countGeneratingSql(userId)} < ${MAX_RUNNING_GENERATIONS}
      AND (${instanceLimit} = 0 OR ${generationsOnSql(day)} < ${instanceLimit})
      ${savesNarrative ? Prisma.sql`AND ${countSavedSql(userId)} < ${savedLimit}` : Prisma.empty}`
  return changed === 1 ? day : null
}

/** How many narratives the user keeps: a SQL fragment, so a claim can check MAX_SAVED_NARRATIVES in its own statement. */
export function countSavedSql(userId: string) {
  return Prisma.sql`(SELECT COUNT(*) FROM "Narrative" WHERE "userId" = ${userId})`
}

/** Narratives and variants being written: a SQL fragment, so a quota claim can check it in its own statement. */
export function countGeneratingSql(userId: string) {
  return Prisma.sql`(
    (SELECT COUNT(*) FROM "Narrative" WHERE "userId" = ${userId} AND "status" = 'generating') +
    (SELECT COUNT(*) FROM "NarrativeVariant" WHERE "userId" = ${userId} AND "status" = 'generating'))`
}

/** Generations claimed on `day` across the instance, deleted accounts' too (refunds give theirs back). */
function generationsOnSql(day: string) {
  return Prisma.sql`((SELECT COALESCE(SUM("quotaUsed"), 0) FROM "User" WHERE "quotaDay" = ${day})
    + (SELECT COALESCE(SUM("used"), 0) FROM "RetiredQuota" WHERE "day" = ${day}))`
}

/**
 * Deletes an account's row, keeping what it claimed today in the instance's count: otherwise signing
 * up, generating and deleting, over and over, would never meet MAX_DAILY_GENERATIONS.
 */
export async function deleteUserKeepingQuota(userId: string) {
  const day = utcDay()
  await prisma.$transaction([
    prisma.$executeRaw`
      INSERT INTO "RetiredQuota" ("day", "used")
      SELECT "quotaDay", "quotaUsed" FROM "User" WHERE "id" = ${userId} AND "quotaDay" = ${day} AND "quotaUsed" > 0
      ON CONFLICT ("day") DO UPDATE SET "used" = "RetiredQuota"."used" + excluded."used"`,
    prisma.user.deleteMany({ where: { id: userId } }),
  ])
}

/** Why a claim just failed, for the message: checked in the order a person can act on. */
export async function whyRefused(userId: string, { savesNarrative = true } = {}): Promise<QuotaRefusal> {
  const { MAX_SAVED_NARRATIVES, MAX_DAILY_GENERATIONS } = getEnv()
  if (await prisma.user.findFirst({ where: { id: userId, disabledAt: { not: null } }, select: { id: true } })) return 'disabled'
  const [{ saved, running, instance }] = await prisma.$queryRaw<{ saved: bigint; running: bigint; instance: bigint }[]>`
    SELECT ${countSavedSql(userId)} AS saved, ${countGeneratingSql(userId)} AS running, ${generationsOnSql(utcDay())} AS instance`
  if (savesNarrative && Number(saved) >= MAX_SAVED_NARRATIVES) return 'saved'
  if (Number(running) >= MAX_RUNNING_GENERATIONS) return 'running'
  const remaining = await getRemainingQuota(userId)
  if (MAX_DAILY_GENERATIONS > 0 && Number(instance) >= MAX_DAILY_GENERATIONS && remaining > 0) return 'instance'
  // With quota left, the claim met a generation that has ended since: the one limit that passes by itself.
  return remaining > 0 ? 'running' : 'daily'
}

/** Gives back a claim to the day it was claimed on (after midnight it still counts for the total), in the caller's transaction. */
export async function refundQuota(tx: Prisma.TransactionClient, { userId, quotaDay }: ClaimedGeneration) {
  if (!quotaDay) return
  await tx.$executeRaw`
    UPDATE "User"
    SET "quotaUsed" = CASE WHEN "quotaDay" = ${quotaDay} AND "quotaUsed" > 0 THEN "quotaUsed" - 1 ELSE "quotaUsed" END,
      "generationsTotal" = CASE WHEN "generationsTotal" > 0 THEN "generationsTotal" - 1 ELSE 0 END
    WHERE "id" = ${userId}`
}

/** Claims and inserts the record in one transaction, so every record has its claim; a refusal throws a QuotaError. */
export async function claimGeneration(
  userId: string,
  options: { savesNarrative: boolean },
  insert: (tx: Prisma.TransactionClient, quotaDay: string) => Promise<string>,
) {
  const claimed = await prisma.$transaction(async (tx) => {
    const quotaDay = await claimQuota(tx, userId, options)
    return quotaDay ? { id: await insert(tx, quotaDay), quotaDay } : null
  })
  if (claimed) return claimed
  const reason = await whyRefused(userId, options)
  log('warn', 'quota.refused', { userId, reason })
  throw refusal(reason)
}
