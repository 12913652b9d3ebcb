import { onBusMessage, publish } from '~/server/cluster/cluster.server'

/**
 * An event stream keeps sending until it hears here that its session ended or lost a right, on
 * whichever replica it is open: the change goes to the others over the bus.
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
  notifyHere(change)
  publish({ type: 'session', change })
}

function notifyHere(change: SessionChange) {
  for (const listener of listeners) listener(change)
}

onBusMessage('session', (message) => notifyHere(message.change as SessionChange))
