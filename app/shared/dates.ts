import { useEffect, useState } from 'react'

// Dates are rendered in UTC on the server (it cannot know the reader's zone) and switched to the
// reader's local date once the page is running in the browser.
// Building an Intl formatter costs far more than using one: keep one per zone and style.
const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = `${timeZone}|${JSON.stringify(options)}`
  let format = formatters.get(key)
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat('en-US', { timeZone, ...options })))
  return format
}

export function formatDate(value: string | Date, timeZone?: string): string {
  return formatter(timeZone, { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(value))
}

export function formatDateTime(value: string | Date, timeZone?: string): string {
  return formatter(timeZone, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value))
}

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
