import { getEnv } from '~/server/platform/env.server'
import { RefusedError } from '~/server/platform/refused-error.server'

export const MAX_RUNNING_GENERATIONS = 2

// A disabled account is refused a generation like any other claim over its allowance, in the words
// sign-in uses for it (accounts/auth.server.ts).
export const ACCOUNT_DISABLED = 'This account has been disabled. Please contact your administrator.'
export const QUOTA_EXHAUSTED = 'You have reached your daily limit of narratives. Please try again tomorrow.'
export const VARIANTS_EXHAUSTED =
  "You have reached today's limit of answers and variants. Please try again tomorrow: your narratives are counted apart."
export const TOO_MANY_RUNNING = 'You already have two narratives being written. Please wait for one to finish.'
export const INSTANCE_EXHAUSTED = 'This site has written as many narratives today as its administrator allows. Please try again tomorrow.'

/** quotaDay: the day the generation was claimed on; null when it cost nothing, so nothing is given back. */
export type ClaimedGeneration = { userId: string; quotaDay: string | null }

export type QuotaRefusal = 'disabled' | 'saved' | 'running' | 'daily' | 'daily-variants' | 'instance'

/** 429 for limits that pass with time. */
export class QuotaError extends RefusedError<403 | 429> {
  constructor(message: string, status: 403 | 429 = 429) {
    super(message, status)
  }
}

export class SavedLimitError extends RefusedError<403> {
  constructor(max = getEnv().MAX_SAVED_NARRATIVES) {
    super(`You keep ${max} narratives, the most one account can. Delete some to make room for new ones.`, 403)
  }
}

export function refusal(reason: QuotaRefusal): QuotaError {
  if (reason === 'disabled') return new QuotaError(ACCOUNT_DISABLED, 403)
  if (reason === 'saved') return new QuotaError(new SavedLimitError().message, 403)
  return new QuotaError(
    { running: TOO_MANY_RUNNING, daily: QUOTA_EXHAUSTED, 'daily-variants': VARIANTS_EXHAUSTED, instance: INSTANCE_EXHAUSTED }[reason],
  )
}
