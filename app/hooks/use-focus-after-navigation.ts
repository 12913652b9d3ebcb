import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

/**
 * After a client-side navigation, a screen reader hears nothing and focus may sit on an element that
 * is gone (a Save button, a row's link). Moving to a new page focuses its heading, which announces it;
 * a change within the page (a query or a hash) moves focus only when it was lost, to the hash's target
 * or the heading, scrolled into view. A full page load is left to the browser.
 */
export function useFocusAfterNavigation() {
  const location = useLocation()
  const previousPath = useRef<string | null>(null)
  useEffect(() => {
    const loaded = previousPath.current === null
    const newPage = location.pathname !== previousPath.current
    previousPath.current = location.pathname
    if (loaded || (!newPage && !focusLost()) || focusPlacedByPage()) return
    const target = (location.hash && document.getElementById(hashId(location.hash))) || document.querySelector('main h1')
    if (!(target instanceof HTMLElement)) return
    if (!target.hasAttribute('tabindex') && !target.matches('a, button, input, select, textarea')) target.tabIndex = -1
    target.focus()
  }, [location.key]) // eslint-disable-line react-hooks/exhaustive-deps
}

/** The new page put focus somewhere itself (an autoFocus field): that is where it goes. */
function focusPlacedByPage() {
  const active = document.activeElement
  return active instanceof HTMLElement && active !== document.body && active.isConnected && Boolean(active.closest('main'))
}

function hashId(hash: string) {
  try {
    return decodeURIComponent(hash.slice(1))
  } catch {
    return hash.slice(1) // a malformed escape: the id as written
  }
}

function focusLost() {
  const active = document.activeElement
  return !active || active === document.body || !active.isConnected
}
