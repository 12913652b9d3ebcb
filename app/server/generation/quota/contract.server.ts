import { ACCOUNT_DISABLED } from '~/server/accounts/auth.server'
import { getEnv } from '~/server/platform/env.server'
import { RefusedError } from '~/server/platform/refused-error.server'

// The quota's contract: what a generation claims, and how a refused claim is told.

/** At most this many generations of one user run at once. */
export const MAX_RUNNING_GENERATIONS = 2

export const QUOTA_EXHAUSTED = 'You have reached your daily limit of narratives. Please try again tomorrow.'
export const TOO_MANY_RUNNING = 'You already have two narratives being written. Please wait for one to finish.'
export const INSTANCE_EXHAUSTED = 'This site has written as many narratives today as its administrator allows. Please try again tomorrow.'

/** Whose generation, claimed on which day: what a refund gives back. */
export type ClaimedGeneration = { userId: string; quotaDay: string | null }

export type QuotaRefusal = 'disabled' | 'saved' | 'running' | 'daily' | 'instance'

/** A generation refused before it started: `status` is what an HTTP answer says (429 for limits that pass with time). */
export class QuotaError extends RefusedError<403 | 429> {
  constructor(message: string, status: 403 | 429 = 429) {
    super(message, status)
  }
}

/** Refused: the user keeps MAX_SAVED_NARRATIVES narratives already. */
export class SavedLimitError extends Error {
  constructor(max = getEnv().MAX_SAVED_NARRATIVES) {
    super(`You keep ${max} narratives, the most one account can. Delete some to make room for new ones.`)
  }
}

export function refusal(reason: QuotaRefusal): QuotaError {
  if (reason === 'disabled') return new QuotaError(ACCOUNT_DISABLED, 403)
  if (reason === 'saved') return new QuotaError(new SavedLimitError().message, 403)
  return new QuotaError({ running: TOO_MANY_RUNNING, daily: QUOTA_EXHAUSTED, instance: INSTANCE_EXHAUSTED }[reason])
}
