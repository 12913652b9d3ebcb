import { useCallback, useEffect, useRef, useState } from 'react'
import { EVIDENCE_FIELDS, type EvidenceCheck } from '~/shared/evidence'

/** How long typing pauses before the coach reads the fields again. */
const PAUSE_MS = 700
const CHECK_PATH = '/resources/evidence-check'
const FAILED = 'The evidence could not be checked just now. Your narrative can still be generated.'

/**
 * Sent a pause after the last keystroke, the older answer dropped when a newer one is asked for. A plain fetch,
 * so the page's loaders do not run again for it.
 */
export function useEvidenceCheck(formId: string, initial: EvidenceCheck | null) {
  const [check, setCheck] = useState<EvidenceCheck | null>(initial)
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const inFlight = useRef<AbortController | null>(null)
  const pause = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  // The server's answer to a form sent without JavaScript: the page needs no first check of its own then.
  const answered = useRef(initial !== null)

  const run = useCallback(
    async (secondOpinion = false) => {
      // A check asked for now answers what is typed now: the one waiting for a pause in the typing is not needed.
      clearTimeout(pause.current)
      const form = document.getElementById(formId)
      if (!(form instanceof HTMLFormElement)) return
      const body = new FormData()
      for (const field of EVIDENCE_FIELDS) {
        const value = form.elements.namedItem(field)
        if (value instanceof HTMLTextAreaElement && value.value.trim()) body.set(field, value.value)
      }
      if (secondOpinion) body.set('secondOpinion', 'on')
      inFlight.current?.abort()
      const controller = (inFlight.current = new AbortController())
      setPending(true)
      try {
        const response = await fetch(CHECK_PATH, { method: 'POST', body, signal: controller.signal })
        const answer = (await response.json()) as { check?: EvidenceCheck; error?: string }
        setCheck(answer.check ?? null)
        setError(answer.check ? null : (answer.error ?? FAILED))
      } catch {
        if (!controller.signal.aborted) setError(FAILED)
      } finally {
        if (inFlight.current === controller) setPending(false)
      }
    },
    [formId],
  )

  useEffect(() => {
    const form = document.getElementById(formId)
    if (!form) return
    const onInput = (event: Event) => {
      const name = (event.target as HTMLTextAreaElement | null)?.name
      if (!EVIDENCE_FIELDS.some((field) => field === name)) return
      clearTimeout(pause.current)
      pause.current = setTimeout(() => void run(), PAUSE_MS)
    }
    form.addEventListener('input', onInput)
    const filled = EVIDENCE_FIELDS.some((field) => {
      const element = (form as HTMLFormElement).elements.namedItem(field)
      return element instanceof HTMLTextAreaElement && element.value.trim() !== ''
    })
    if (filled && !answered.current) void run()
    return () => {
      form.removeEventListener('input', onInput)
      clearTimeout(pause.current)
      inFlight.current?.abort()
    }
  }, [formId, run])

  return { check, pending, error, run }
}
