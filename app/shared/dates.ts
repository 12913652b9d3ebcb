// The person's dates are written by ~/shared/locale; the browser's zone is ~/hooks/use-local-time-zone.
export { formatDate, formatDateTime } from '~/shared/locale'

/** "5 h", "40 min", "1 min": whole hours past the first, rounded down. */
export function durationUntil(to: Date | string, now = new Date()): string {
  const minutes = Math.max(1, Math.ceil((new Date(to).getTime() - now.getTime()) / 60_000))
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h`
}
