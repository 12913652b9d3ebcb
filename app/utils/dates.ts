import { useEffect, useState } from 'react'

// Dates are rendered in UTC on the server (it cannot know the reader's zone) and switched to the
// reader's local date once the page is running in the browser.
export function formatDate(value: string | Date, timeZone?: string): string {
  return new Date(value).toLocaleDateString('en-US', { timeZone, year: 'numeric', month: 'short', day: 'numeric' })
}

export function formatDateTime(value: string | Date, timeZone?: string): string {
  return new Date(value).toLocaleString('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' })
}

export function useLocalTimeZone(): string {
  const [zone, setZone] = useState('UTC')
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), [])
  return zone
}
