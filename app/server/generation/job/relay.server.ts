import crypto from 'node:crypto'
import { cluster, onBusMessage, publish } from '~/server/cluster/cluster.server'
import { REPLICA_ID } from '~/server/cluster/contract.server'
import { getNarrativeOutcome } from '~/server/narratives/narratives.server'
import { getVariantOutcome } from '~/server/narratives/variants.server'
import type { GenerationEvent } from '~/server/generation/job/contract.server'

// Only a generation's runner has its pieces: a stream on another replica asks it over the bus to replay and
// relay them; Stop and disabling reach the runner the same way (docs/decisions/038).

type Kind = 'narrative' | 'variant'
type Listener = (event: GenerationEvent) => void

/** How often a follower reads the row: a dead runner or a lost final event would otherwise leave it open for ever. */
const CHECK_MS = 3_000

const isFinal = (event: GenerationEvent) => event.type === 'done' || event.type === 'error'

/** A generation's row, of either kind: its status and saved text, and while it runs, its runner. */
export async function readGeneration(id: string, kind: Kind) {
  if (kind === 'variant') return getVariantOutcome(id)
  const narrative = await getNarrativeOutcome(id)
  return narrative && { status: narrative.status, text: narrative.generatedNarrative, runner: narrative.runner, userId: narrative.userId }
}

async function runningElsewhere(id: string, kind: Kind) {
  const row = await readGeneration(id, kind)
  return row?.status === 'generating' && row.runner && row.runner !== REPLICA_ID ? { runner: row.runner, userId: row.userId } : null
}

export type RunnerSide = {
  subscribe(id: string, afterSeq: number, listener: Listener): (() => void) | null
  stop(id: string, userId: string): void
  stopUser(userId: string): void
}

/** Serves the followers and the Stops of other replicas for the generations running here. */
export function serveOtherReplicas(runner: RunnerSide) {
  const relays = new Map<string, () => void>()
  const endRelay = (sub: string) => {
    relays.get(sub)?.()
    relays.delete(sub)
  }
  onBusMessage('follow', (message) => {
    const { sub, id, afterSeq, from } = message as unknown as { sub: string; id: string; afterSeq: number; from: string }
    // The replay comes synchronously from subscribe, and goes as one message with the answer.
    let replay: GenerationEvent[] | null = []
    let ended = false
    const unsubscribe = runner.subscribe(id, afterSeq, (event) => {
      ended ||= isFinal(event)
      if (replay) return void replay.push(event)
      publish({ type: 'relay', sub, events: [event] }, from)
      if (ended) endRelay(sub)
    })
    // None: the job has gone since the follower looked, and the row has its outcome.
    publish({ type: 'relay', sub, events: unsubscribe ? replay : null }, from)
    replay = null
    if (unsubscribe && !ended) relays.set(sub, unsubscribe)
  })
  onBusMessage('unfollow', (message) => endRelay(String(message.sub)))
  onBusMessage('stop', (message) => runner.stop(String(message.id), String(message.userId)))
  onBusMessage('stop-user', (message) => runner.stopUser(String(message.userId)))
}

type Following = { id: string; listener: Listener; readSaved: () => void; watchdog: NodeJS.Timeout }
const following = new Map<string, Following>()

function stopFollowing(sub: string) {
  const follow = following.get(sub)
  if (follow) clearInterval(follow.watchdog)
  following.delete(sub)
  return follow
}

onBusMessage('relay', (message) => {
  const sub = String(message.sub)
  const follow = following.get(sub)
  if (!follow) return
  const events = message.events as GenerationEvent[] | null
  if (!events) return stopFollowing(sub)?.readSaved()
  for (const event of events) {
    if (isFinal(event)) stopFollowing(sub)
    follow.listener(event)
  }
})

onBusMessage('ended', (message) => endFollowersOf(message.ids as string[]))

function endFollowersOf(ids: string[]) {
  for (const [sub, follow] of following) if (ids.includes(follow.id)) stopFollowing(sub)?.readSaved()
}

/** Follows a generation on another replica; null when none runs it. `readSaved` stands in for a dead runner's final event. */
export async function followOnRunner(
  { id, kind, afterSeq }: { id: string; kind: Kind; afterSeq: number },
  listener: Listener,
  readSaved: () => void,
): Promise<(() => void) | null> {
  // A process alone runs every generation there is: what it does not run has ended.
  if (cluster().recovery.alone) return null
  const running = await runningElsewhere(id, kind)
  if (!running) return null
  const sub = crypto.randomUUID()
  const watchdog = setInterval(() => {
    runningElsewhere(id, kind).then(
      (still) => !still && stopFollowing(sub)?.readSaved(),
      () => {},
    )
  }, CHECK_MS)
  following.set(sub, { id, listener, readSaved, watchdog })
  publish({ type: 'follow', sub, id, afterSeq, from: REPLICA_ID }, running.runner)
  return () => {
    if (stopFollowing(sub)) publish({ type: 'unfollow', sub }, running.runner)
  }
}

/** False when no replica runs it. */
export async function stopOnRunner(id: string, userId: string): Promise<boolean> {
  if (cluster().recovery.alone) return false
  const running = await runningElsewhere(id, 'narrative')
  if (running?.userId !== userId) return false
  publish({ type: 'stop', id, userId }, running.runner)
  return true
}

export function stopUserEverywhere(userId: string) {
  publish({ type: 'stop-user', userId })
}

/** Recovery failed these generations of a dead runner: their followers, here and elsewhere, read the rows. */
export function announceEnded(ids: string[]) {
  if (!ids.length) return
  endFollowersOf(ids)
  publish({ type: 'ended', ids })
}
