import { useCallback, useEffect, useRef, useState } from 'react'

export type ToastType = 'info' | 'success' | 'error' | 'warning'
export type ToastMessage = { message: string; type: ToastType; description?: string }
type Toast = ToastMessage & { id: number }

export const TOAST_DURATION_MS = 5000

// Client code anywhere can raise a toast; the one Toaster in root renders them.
const listeners = new Set<(toast: ToastMessage) => void>()
export function showToast(toast: ToastMessage) {
  for (const listener of listeners) listener(toast)
}

let nextId = 1

/**
 * Top-right notifications that close after 5 s; Alt+T moves focus to them. The flash toast from the
 * server is rendered in the HTML too, so it shows without JavaScript (CSS fades it out).
 */
export function Toaster({ serverToast }: { serverToast?: ToastMessage | null }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const regionRef = useRef<HTMLElement>(null)
  const [hydrated, setHydrated] = useState(false)

  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    const add = (toast: ToastMessage) => setToasts((current) => [...current, { ...toast, id: nextId++ }])
    listeners.add(add)
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
    <li className={`toast toast-${toast.type}`} role={urgent ? 'alert' : 'status'}>
      <div>
        <p className="toast-message">{toast.message}</p>
        {toast.description ? <p className="toast-description">{toast.description}</p> : null}
      </div>
      <button type="button" className="toast-close" onClick={() => onDismiss(toast.id)} aria-label="Dismiss notification">
        ×
      </button>
    </li>
  )
}
