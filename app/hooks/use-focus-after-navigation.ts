import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

/**
 * After a client-side navigation, a screen reader hears nothing and focus may sit on an element that
 * is gone (a Save button, a row's link). A new page's heading is focused, which announces it; within
 * the page, focus moves only when it was lost (decision 024).
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
