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
  /** Generations claimed ever and not given back, counted as today's are (deleted narratives still count). */
  generationsTotal: number
  /** Invited, and has not set a password yet. */
  invitationPending: boolean
}

/** A person's name as the pages show it: first and last, either of which may be empty. */
export const fullName = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`.trim()
