/**
 * Sessions that end, or lose a right, while something they opened is still running: an event stream
 * keeps sending until it hears of it here. This process's listeners suit one server; with several
 * replicas the same events must reach every one of them.
 */
export type SessionChange =
  /** The user's sessions ended: those named, or every one but `except`, or all of them. */
  | { kind: 'ended'; userId: string; sessionIds?: string[]; except?: string }
  /** The user is no longer an administrator: what they followed of others' is no longer theirs to see. */
  | { kind: 'demoted'; userId: string }

const listeners = new Set<(change: SessionChange) => void>()

export function onSessionChange(listener: (change: SessionChange) => void) {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

export function announceSessionChange(change: SessionChange) {
  for (const listener of listeners) listener(change)
}
