/** One account as Manage Users and `GET /auth/` show it. */
export type UserSummary = {
  id: string
  email: string
  firstName: string
  lastName: string
  isAdmin: boolean
  createdAt: Date
  disabled: boolean
  /** Overrides DAILY_NARRATIVE_LIMIT; null: the instance's default. */
  dailyLimit: number | null
  /** Generations claimed today (UTC): failed ones are refunded and not counted. */
  generationsToday: number
  /** Generated narratives the user keeps: not failed, not saved by hand through the API. */
  generationsTotal: number
  /** Invited, and has not set a password yet. */
  invitationPending: boolean
}
