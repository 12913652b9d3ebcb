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

/**
 * The user's day: how many narratives they may still generate of their limit (their own, else the instance's),
 * how many answers and variants of DAILY_VARIANT_LIMIT, and when both reset.
 */
export async function getQuota(userId: string) {
  // Raw SQL: the dashboard reads it on every visit (decision 006).
  const [user] = await prisma.$queryRaw<
    {
      quotaDay: string | null
      quotaUsed: number | bigint
      dailyLimit: number | bigint | null
      variantDay: string | null
      variantsUsed: number | bigint
    }[]
  >`SELECT "quotaDay", "quotaUsed", "dailyLimit", "variantDay", "variantsUsed" FROM "User" WHERE "id" = ${userId}`
  const today = utcDay()
  const { DAILY_NARRATIVE_LIMIT, DAILY_VARIANT_LIMIT: variantLimit } = getEnv()
  const used = user?.quotaDay === today ? Number(user.quotaUsed) : 0
  const limit = user?.dailyLimit != null ? Number(user.dailyLimit) : DAILY_NARRATIVE_LIMIT
  const variantsUsed = user?.variantDay === today ? Number(user.variantsUsed) : 0
  return {
    remaining: Math.max(0, limit - used),
    limit,
    variantsLeft: Math.max(0, variantLimit - variantsUsed),
    variantLimit,
    resetsAt: nextReset(),
  }
}

export async function getRemainingQuota(userId: string): Promise<number> {
  return (await getQuota(userId)).remaining
}

/**
 * What a generation draws on: the day's narratives, the day's answers and variants (a model's), or nothing (the
 * offline drafter's answers and variants, which cost no one anything).
 */
export type Allowance = 'narratives' | 'variants' | 'free'

/** A counted allowance's columns on "User": the UTC day of its last claim, and the claims of that day. */
const COUNTED = {
  narratives: { day: Prisma.raw('"quotaDay"'), used: Prisma.raw('"quotaUsed"') },
  variants: { day: Prisma.raw('"variantDay"'), used: Prisma.raw('"variantsUsed"') },
} as const

type ClaimOptions = { savesNarrative?: boolean; allowance?: Exclude<Allowance, 'free'> }

/**
 * Claims one of today's generations in one conditional UPDATE, one claim at a time, so parallel requests never pass
 * a limit: the allowance's daily (narratives: the user's own, else DAILY_NARRATIVE_LIMIT; answers and variants:
 * DAILY_VARIANT_LIMIT), being disabled, MAX_RUNNING_GENERATIONS, MAX_DAILY_GENERATIONS (0: none; both allowances
 * count), MAX_SAVED_NARRATIVES. The day claimed on, or null when refused.
 */
export async function claimQuota(
  tx: Prisma.TransactionClient,
  userId: string,
  { savesNarrative = true, allowance = 'narratives' }: ClaimOptions = {},
): Promise<string | null> {
  const day = utcDay()
  const env = getEnv()
  const { day: dayColumn, used } = COUNTED[allowance]
  const limit =
    allowance === 'narratives' ? Prisma.sql`COALESCE("dailyLimit", ${env.DAILY_NARRATIVE_LIMIT})` : Prisma.sql`${env.DAILY_VARIANT_LIMIT}`
  // Held until `tx` ends, so the record the caller inserts is counted by the next claim.
  await lockInvariant(tx, 'claims')
  const changed = await tx.$executeRaw`
    UPDATE "User"
    SET ${used} = CASE WHEN ${dayColumn} = ${day} THEN ${used} + 1 ELSE 1 END, ${dayColumn} = ${day},
      "generationsTotal" = "generationsTotal" + 1
    WHERE "id" = ${userId}
      AND (CASE WHEN ${dayColumn} = ${day} THEN ${used} ELSE 0 END) < ${limit}
      AND ${claimableSql(userId)}
      AND (${env.MAX_DAILY_GENERATIONS} = 0 OR ${generationsOnSql(day)} < ${env.MAX_DAILY_GENERATIONS})
      ${savesNarrative ? Prisma.sql`AND ${countSavedSql(userId)} < ${env.MAX_SAVED_NARRATIVES}` : Prisma.empty}`
  return changed === 1 ? day : null
}

/** A generation that costs nothing: only being disabled and MAX_RUNNING_GENERATIONS hold it back. */
async function claimFree(tx: Prisma.TransactionClient, userId: string): Promise<boolean> {
  await lockInvariant(tx, 'claims')
  const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "User" WHERE "id" = ${userId} AND ${claimableSql(userId)}`
  return row !== undefined
}

/** Whether the user may start a generation at all, whatever it costs: a SQL condition on their "User" row. */
function claimableSql(userId: string) {
  return Prisma.sql`"disabledAt" IS NULL AND ${countGeneratingSql(userId)} < ${MAX_RUNNING_GENERATIONS}`
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

/** Generations claimed on `day` across the instance, of both allowances, deleted accounts' too (refunds give theirs back). */
function generationsOnSql(day: string) {
  return Prisma.sql`((SELECT COALESCE(SUM("quotaUsed"), 0) FROM "User" WHERE "quotaDay" = ${day})
    + (SELECT COALESCE(SUM("variantsUsed"), 0) FROM "User" WHERE "variantDay" = ${day})
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
      SELECT ${day}, used FROM (
        SELECT (CASE WHEN "quotaDay" = ${day} THEN "quotaUsed" ELSE 0 END)
          + (CASE WHEN "variantDay" = ${day} THEN "variantsUsed" ELSE 0 END) AS used
        FROM "User" WHERE "id" = ${userId}) today
      WHERE used > 0
      ON CONFLICT ("day") DO UPDATE SET "used" = "RetiredQuota"."used" + excluded."used"`,
    prisma.user.deleteMany({ where: { id: userId } }),
  ])
}

/** Why a claim just failed, for the message: checked in the order a person can act on. */
export async function whyRefused(
  userId: string,
  { savesNarrative = true, allowance = 'narratives' }: { savesNarrative?: boolean; allowance?: Allowance } = {},
): Promise<QuotaRefusal> {
  const { MAX_SAVED_NARRATIVES, MAX_DAILY_GENERATIONS } = getEnv()
  if (await prisma.user.findFirst({ where: { id: userId, disabledAt: { not: null } }, select: { id: true } })) return 'disabled'
  const [{ saved, running, instance }] = await prisma.$queryRaw<{ saved: bigint; running: bigint; instance: bigint }[]>`
    SELECT ${countSavedSql(userId)} AS saved, ${countGeneratingSql(userId)} AS running, ${generationsOnSql(utcDay())} AS instance`
  if (savesNarrative && Number(saved) >= MAX_SAVED_NARRATIVES) return 'saved'
  if (Number(running) >= MAX_RUNNING_GENERATIONS || allowance === 'free') return 'running'
  const quota = await getQuota(userId)
  const remaining = allowance === 'variants' ? quota.variantsLeft : quota.remaining
  if (MAX_DAILY_GENERATIONS > 0 && Number(instance) >= MAX_DAILY_GENERATIONS && remaining > 0) return 'instance'
  // With quota left, the claim met a generation that has ended since: the one limit that passes by itself.
  if (remaining > 0) return 'running'
  return allowance === 'variants' ? 'daily-variants' : 'daily'
}

/** Gives back a claim to the allowance and the day it was claimed on (after midnight it still counts for the total), in the caller's transaction. */
export async function refundQuota(
  tx: Prisma.TransactionClient,
  { userId, quotaDay }: ClaimedGeneration,
  allowance: Exclude<Allowance, 'free'> = 'narratives',
) {
  if (!quotaDay) return
  const { day, used } = COUNTED[allowance]
  await tx.$executeRaw`
    UPDATE "User"
    SET ${used} = CASE WHEN ${day} = ${quotaDay} AND ${used} > 0 THEN ${used} - 1 ELSE ${used} END,
      "generationsTotal" = CASE WHEN "generationsTotal" > 0 THEN "generationsTotal" - 1 ELSE 0 END
    WHERE "id" = ${userId}`
}

/**
 * Claims and inserts the record in one transaction, so every record has its claim; a refusal throws a QuotaError.
 * The record's quotaDay is the day claimed on, or null for a generation that cost nothing (nothing to give back).
 */
export async function claimGeneration(
  userId: string,
  options: { savesNarrative: boolean; allowance: Allowance },
  insert: (tx: Prisma.TransactionClient, quotaDay: string | null) => Promise<string>,
) {
  const claimed = await prisma.$transaction(async (tx) => {
    const claim = await claimIn(tx, userId, options)
    return claim ? { id: await insert(tx, claim.quotaDay), quotaDay: claim.quotaDay } : null
  })
  if (claimed) return claimed
  const reason = await whyRefused(userId, options)
  log('warn', 'quota.refused', { userId, reason })
  throw refusal(reason)
}

/** The claim, with the day it counts on (null: it cost nothing), or null when refused. */
async function claimIn(
  tx: Prisma.TransactionClient,
  userId: string,
  { savesNarrative, allowance }: { savesNarrative: boolean; allowance: Allowance },
): Promise<{ quotaDay: string | null } | null> {
  if (allowance === 'free') return (await claimFree(tx, userId)) ? { quotaDay: null } : null
  const quotaDay = await claimQuota(tx, userId, { savesNarrative, allowance })
  return quotaDay ? { quotaDay } : null
}
