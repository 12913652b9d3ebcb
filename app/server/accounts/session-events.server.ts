/**
 * An event stream keeps sending until it hears here that its session ended or lost a right. These
 * in-process listeners suit one server; with several replicas the events must reach every one.
 */
export type SessionChange =
  /** Those named, or every one but `except`, or all of them. */
  | { kind: 'ended'; userId: string; sessionIds?: string[]; except?: string }
  /** What they followed of others' is no longer theirs to see. */
  | { kind: 'demoted'; userId: string }

const listeners = new Set<(change: SessionChange) => void>()

export function onSessionChange(listener: (change: SessionChange) => void) {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

export function announceSessionChange(change: SessionChange) {
  for (const listener of listeners) listener(change)
}
