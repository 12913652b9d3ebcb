import { useCallback, useEffect, useRef, useState } from 'react'

export type ToastType = 'info' | 'success' | 'error' | 'warning'
export type ToastMessage = { message: string; type: ToastType; description?: string }
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
