import { useCallback, useEffect, useRef, useState } from 'react'
import type { ToastMessage } from '~/shared/toast'

type Toast = ToastMessage & { id: number }

export const TOAST_DURATION_MS = 5000

// A toast raised before the Toaster listens (a page's effects run before those of the Toaster after it) waits for it.
const listeners = new Set<(toast: ToastMessage) => void>()
const waiting: ToastMessage[] = []
// One answer's toast may be raised by its page and by the error boundary that replaces it.
const raised = new WeakSet<ToastMessage>()
export function showToast(toast: ToastMessage) {
  if (raised.has(toast)) return
  raised.add(toast)
  if (listeners.size === 0) waiting.push(toast)
  for (const listener of listeners) listener(toast)
}

let nextId = 1

/** Alt+T moves focus to the toasts. The server's flash toast is in the HTML too, so it shows without JavaScript. */
export function Toaster({ serverToast }: { serverToast?: ToastMessage | null }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const regionRef = useRef<HTMLElement>(null)
  const [hydrated, setHydrated] = useState(false)

  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    const add = (toast: ToastMessage) => setToasts((current) => [...current, { ...toast, id: nextId++ }])
    listeners.add(add)
    waiting.splice(0).forEach(add)
    return () => void listeners.delete(add)
  }, [])
  useEffect(() => {
    if (serverToast) showToast(serverToast)
  }, [serverToast])
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey && event.code === 'KeyT') regionRef.current?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  // A toast never sits over the field a person is at (often the one it asks them to correct): as it
  // appears, and as focus moves while it shows, that field is scrolled clear of it.
  useEffect(() => {
    const region = regionRef.current
    if (!region || toasts.length === 0) return
    // After the browser's own scroll to what took focus, which knows nothing of the toasts.
    const clear = () => requestAnimationFrame(() => scrollClearOf(region, document.activeElement))
    clear()
    document.addEventListener('focusin', clear)
    return () => document.removeEventListener('focusin', clear)
  }, [toasts.length])

  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), [])
  const shown: Toast[] = hydrated ? toasts : serverToast ? [{ ...serverToast, id: 0 }] : []

  return (
    <section ref={regionRef} className="toaster" aria-label="Notifications (Alt+T)" tabIndex={-1}>
      <ol>
        {shown.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </ol>
    </section>
  )
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_DURATION_MS)
    return () => clearTimeout(timer)
  }, [toast.id, onDismiss])
  const urgent = toast.type === 'error' || toast.type === 'warning'
  return (
    <li className={`toast toast-${toast.type}`}>
      <div role={urgent ? 'alert' : 'status'}>
        <p className="toast-message">{toast.message}</p>
        {toast.description ? <p className="toast-description">{toast.description}</p> : null}
      </div>
      <button type="button" className="toast-close" onClick={() => onDismiss(toast.id)} aria-label="Dismiss notification">
        ×
      </button>
    </li>
  )
}

const TOAST_GAP_PX = 12

/** Scrolls the page so that `target` is out from under the toasts: above them at the foot of a phone's screen, below them at the top. */
function scrollClearOf(region: HTMLElement, target: Element | null) {
  if (!(target instanceof HTMLElement) || target === document.body || region.contains(target)) return
  const toasts = region.querySelector('ol')?.getBoundingClientRect()
  if (!toasts || toasts.height === 0) return
  const field = target.getBoundingClientRect()
  const covered = field.left < toasts.right && field.right > toasts.left && field.top < toasts.bottom && field.bottom > toasts.top
  if (!covered) return
  const atFoot = toasts.top > window.innerHeight / 2
  // A field taller than the room above the toasts (a text area on a phone) keeps its top, where one types, in sight.
  const up = Math.max(0, Math.min(field.bottom - toasts.top + TOAST_GAP_PX, field.top - TOAST_GAP_PX))
  window.scrollBy({ top: atFoot ? up : field.top - toasts.bottom - TOAST_GAP_PX, behavior: 'instant' })
}

/** In the HTML of the action's answer, so it shows without JavaScript; handed to the Toaster once hydrated. */
export function ActionToast({ from }: { from?: object | null }) {
  const toast = from && 'toast' in from ? (from.toast as ToastMessage) : null
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    if (toast) showToast(toast)
  }, [toast])
  if (hydrated || !toast) return null
  return (
    <div className="toaster">
      <ol>
        <ToastItem toast={{ ...toast, id: 0 }} onDismiss={ignore} />
      </ol>
    </div>
  )
}

const ignore = () => {}
