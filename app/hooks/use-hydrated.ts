import { useEffect, useState } from 'react'

/** False in the server's HTML and the first render after it; true once the page runs JavaScript. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}
