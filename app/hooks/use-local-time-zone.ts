import { useEffect, useState } from 'react'

// Dates are rendered in UTC on the server (it cannot know the reader's zone) and switched to the
// reader's local date once the page is running in the browser, written as the person writes dates
// (~/shared/locale, docs/decisions/043).
export function useLocalTimeZone(): string {
  const [zone, setZone] = useState('UTC')
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), [])
  return zone
}
