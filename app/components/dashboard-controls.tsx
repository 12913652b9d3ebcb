import type { ReactNode } from 'react'
import { useFetcher } from 'react-router'

// The dashboard's smaller buttons and notes beside Generate.

/** Asks the evidence coach: in place with JavaScript; without, the form is sent for a check. */
export function CoachButton({
  hydrated,
  onAsk,
  value,
  children,
}: {
  hydrated: boolean
  onAsk: () => void
  value: 'evidence' | 'second-opinion'
  children: ReactNode
}) {
  return hydrated ? (
    <button type="button" className="button button-secondary" onClick={onAsk}>
      {children}
    </button>
  ) : (
    <button type="submit" name="check" value={value} formNoValidate formAction="#evidence-coach" className="button button-secondary">
      {children}
    </button>
  )
}

/** Stops the generation being written. */
export function StopButton({ id }: { id: string }) {
  const fetcher = useFetcher()
  return (
    <button
      type="button"
      className="button button-danger"
      onClick={() => fetcher.submit({ intent: 'stop', id }, { method: 'POST' })}
      disabled={fetcher.state !== 'idle'}
    >
      Stop
    </button>
  )
}

/** Says the offline drafter writes, and how a model is connected. */
export function OfflineDrafterNote({ isAdmin }: { isAdmin: boolean }) {
  return (
    <p className="engine-note">
      No AI model is connected: the offline drafter arranges your own words into a narrative, without AI, and adds no facts of its own.{' '}
      {isAdmin
        ? 'To write with a model, set OPENAI_API_KEY (and OPENAI_BASE_URL for another provider) and restart; docs/operations.md explains.'
        : 'To write with an AI model, ask the person who runs this site to connect one.'}
    </p>
  )
}
