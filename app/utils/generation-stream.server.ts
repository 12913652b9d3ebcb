import { prisma } from './db.server'
import { GENERATION_FAILED, subscribe, type GenerationEvent } from './generations.server'

const HEARTBEAT_MS = 15_000
// Pieces that arrive within this window go out as one event: far fewer writes when many streams run,
// and no delay a reader could see. The first piece is never held back.
const COALESCE_MS = 25
const encoder = new TextEncoder()

/**
 * A generation as Server-Sent Events: `start`, numbered `delta`s (the event id is the piece number, so
 * EventSource resumes with Last-Event-ID), then `done` with the full text, or `error`. Subscribing never
 * starts or bills anything; a client that goes away only unsubscribes.
 */
export function streamGenerationEvents({ id, engine, afterSeq, signal }: { id: string; engine: string; afterSeq: number; signal: AbortSignal }) {
  let cleanup = () => {}
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false
      const send = (event: string, data: unknown, eventId?: number) => {
        if (closed) return
        controller.enqueue(encoder.encode(`${eventId === undefined ? '' : `id: ${eventId}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`))
      }
      const close = () => {
        if (closed) return
        closed = true
        cleanup()
        controller.close()
      }
      const deltas = coalesce((text, seq) => send('delta', { text }, seq))
      const onEvent = (event: GenerationEvent | FinishedEvent) => {
        if (event.type === 'delta') return deltas.add(event.text, event.seq)
        deltas.flush()
        if (event.type === 'done') send('done', { id, status: event.status, text: event.text })
        else send('error', { error: event.error })
        close()
      }
      const heartbeat = setInterval(() => !closed && controller.enqueue(encoder.encode(': keep-alive\n\n')), HEARTBEAT_MS)
      signal.addEventListener('abort', close)
      send('start', { id, engine })
      const unsubscribe = subscribe(id, afterSeq, onEvent)
      cleanup = () => {
        deltas.cancel()
        clearInterval(heartbeat)
        unsubscribe?.()
        signal.removeEventListener('abort', close)
      }
      if (!unsubscribe) void readFinished(id).then(onEvent, () => onEvent({ type: 'error', error: GENERATION_FAILED }))
    },
    cancel() {
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

/** Joins pieces arriving within COALESCE_MS; `seq` of a joined event is its last piece's. */
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
      const wait = lastSent + COALESCE_MS - performance.now()
      if (wait <= 0) flush()
      else timer = setTimeout(flush, wait)
    },
    flush,
    cancel: () => clearTimeout(timer),
  }
}

/** A generation not running in this process has finished: its record holds the outcome. */
async function readFinished(id: string): Promise<FinishedEvent> {
  const narrative = await prisma.narrative.findUnique({ where: { id }, select: { status: true, generatedNarrative: true } })
  if (narrative?.status === 'complete' || narrative?.status === 'stopped') {
    return { type: 'done', status: narrative.status, text: narrative.generatedNarrative }
  }
  return { type: 'error', error: GENERATION_FAILED }
}

/** Where a reconnecting client left off: EventSource's Last-Event-ID header. */
export function getAfterSeq(request: Request): number {
  const value = Number(request.headers.get('Last-Event-ID'))
  return Number.isSafeInteger(value) && value > 0 ? value : 0
}
