import { subscribe } from '~/server/generation/job/jobs.server'
import { followOnRunner, readGeneration } from '~/server/generation/job/relay.server'
import { takeStreamSlot } from '~/server/generation/follow/stream-slots.server'
import { log } from '~/server/platform/logger.server'
import { onSessionChange, type SessionChange } from '~/server/accounts/session-events.server'
import { GENERATION_FAILED, type GenerationEvent } from '~/server/generation/job/contract.server'

const HEARTBEAT_MS = 15_000
// Pieces within a window go out as one event (docs/PERFORMANCE.md): 25 ms, widening with the open streams to
// keep about 5,000 writes a second, up to 100 ms.
const COALESCE_MIN_MS = 25
const COALESCE_MAX_MS = 100
const WRITES_PER_SECOND = 5000

function coalesceWindowMs() {
  return Math.min(COALESCE_MAX_MS, Math.max(COALESCE_MIN_MS, (openStreams.size * 1000) / WRITES_PER_SECOND))
}

const encoder = new TextEncoder()

export const TOO_MANY_STREAMS = 'Too many open narrative streams. Close some tabs and try again.'

export const SESSION_ENDED = 'Your session has ended. Sign in again to follow this narrative.'

type OpenStream = { viewerId: string; sessionId: string; ownerId: string; end: () => void }
const openStreams = new Set<OpenStream>()

// A stream belongs to the session that opened it, and ends with what that session may no longer see.
onSessionChange((change) => {
  for (const stream of openStreams) if (endsStream(change, stream)) stream.end()
})

function endsStream(change: SessionChange, stream: Omit<OpenStream, 'end'>) {
  if (stream.viewerId !== change.userId) return false
  if (change.kind === 'demoted') return stream.ownerId !== change.userId
  if (change.sessionIds) return change.sessionIds.includes(stream.sessionId)
  return stream.sessionId !== change.except
}

/**
 * `start`, `delta`s numbered for Last-Event-ID, `restart`, then `done` or `error`; never starts or bills anything.
 * `ownPost`: a generation's own POST, never refused by MAX_STREAMS_PER_USER (the running limit bounds it).
 */
export async function streamGenerationEvents({
  id,
  kind = 'narrative',
  viewer,
  ownerId,
  engine,
  afterSeq,
  signal,
  ownPost = false,
}: {
  id: string
  kind?: 'narrative' | 'variant'
  viewer: { id: string; sessionId: string }
  ownerId: string
  engine: string
  afterSeq: number
  signal: AbortSignal
  ownPost?: boolean
}): Promise<Response> {
  const userId = viewer.id
  if (signal.aborted) return new Response(null, { status: 204 })
  // A session change while the slot is taken would otherwise miss this stream, not yet among the open.
  let endedWhileOpening = false
  const stopListening = onSessionChange((change) => {
    endedWhileOpening ||= endsStream(change, { viewerId: userId, sessionId: viewer.sessionId, ownerId })
  })
  const slot = await takeStreamSlot(userId, { always: ownPost }).finally(stopListening)
  if (!slot) {
    log('warn', 'stream.refused', { userId })
    return Response.json({ error: TOO_MANY_STREAMS }, { status: 429, headers: { 'Retry-After': '5' } })
  }
  // The client may have left while the slot was taken.
  if (signal.aborted) {
    slot.release()
    return new Response(null, { status: 204 })
  }
  let cleanup = () => {}
  let closed = false
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: string, data: unknown, eventId?: number) => {
        if (closed) return
        controller.enqueue(
          encoder.encode(`${eventId === undefined ? '' : `id: ${eventId}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
        )
      }
      const close = () => {
        if (closed) return
        closed = true
        cleanup()
        controller.close()
      }
      const deltas = coalesce((text, seq) => send('delta', { text }, seq))
      const onEvent = (event: GenerationEvent) => {
        if (event.type === 'delta') return deltas.add(event.text, event.seq)
        deltas.flush()
        if (event.type === 'restart') return send('restart', { reason: event.reason })
        if (event.type === 'done') send('done', { id, status: event.status, text: event.text })
        else send('error', { error: event.error })
        close()
      }
      const heartbeat = setInterval(() => !closed && controller.enqueue(encoder.encode(': keep-alive\n\n')), HEARTBEAT_MS)
      signal.addEventListener('abort', close)
      const stream: OpenStream = {
        viewerId: userId,
        sessionId: viewer.sessionId,
        ownerId,
        end: () => {
          deltas.flush()
          send('error', { error: SESSION_ENDED })
          close()
        },
      }
      openStreams.add(stream)
      send('start', { id, engine })
      let unsubscribe: (() => void) | null = null
      // Set before subscribing: a generation that has just ended replays its end, and closes, at once.
      cleanup = () => {
        cleanup = () => {}
        slot.release()
        openStreams.delete(stream)
        deltas.cancel()
        clearInterval(heartbeat)
        unsubscribe?.()
        signal.removeEventListener('abort', close)
      }
      if (endedWhileOpening) return stream.end()
      const readSaved = () => void readFinished(id, kind).then(onEvent, () => onEvent({ type: 'error', error: GENERATION_FAILED }))
      unsubscribe = subscribe(id, afterSeq, onEvent)
      if (unsubscribe) return
      followOnRunner({ id, kind, afterSeq }, onEvent, readSaved).then((elsewhere) => {
        if (!elsewhere) return readSaved()
        if (closed) return elsewhere()
        unsubscribe = elsewhere
      }, readSaved)
    },
    // The client went away: nothing more may be enqueued, and what is pending is let go.
    cancel() {
      closed = true
      cleanup()
    },
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
    },
  })
}

type FinishedEvent = Extract<GenerationEvent, { type: 'done' | 'error' }>

function coalesce(send: (text: string, seq: number) => void) {
  let text = ''
  let seq = 0
  let lastSent = 0
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    if (!text) return
    send(text, seq)
    text = ''
    lastSent = performance.now()
  }
  return {
    add(piece: string, pieceSeq: number) {
      text += piece
      seq = pieceSeq
      if (timer) return
      const wait = lastSent + coalesceWindowMs() - performance.now()
      if (wait <= 0) flush()
      else timer = setTimeout(flush, wait)
    },
    flush,
    cancel: () => clearTimeout(timer),
  }
}

async function readFinished(id: string, kind: 'narrative' | 'variant'): Promise<FinishedEvent> {
  const outcome = await readGeneration(id, kind)
  if (outcome?.status === 'complete' || outcome?.status === 'stopped') return { type: 'done', status: outcome.status, text: outcome.text }
  return { type: 'error', error: GENERATION_FAILED }
}

export function getAfterSeq(request: Request): number {
  const value = Number(request.headers.get('Last-Event-ID'))
  return Number.isSafeInteger(value) && value > 0 ? value : 0
}
