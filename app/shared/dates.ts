import { useEffect, useState } from 'react'

// Dates are rendered in UTC on the server (it cannot know the reader's zone) and switched to the
// reader's local date once the page is running in the browser, written as the person writes dates
// (~/shared/locale, docs/decisions/043).
export { formatDate, formatDateTime } from '~/shared/locale'

export function useLocalTimeZone(): string {
  const [zone, setZone] = useState('UTC')
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), [])
  return zone
}

/** "5 h", "40 min", "1 min": whole hours past the first, rounded down. */
export function durationUntil(to: Date | string, now = new Date()): string {
  const minutes = Math.max(1, Math.ceil((new Date(to).getTime() - now.getTime()) / 60_000))
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h`
}
