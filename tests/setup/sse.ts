import { readServerSentEvents } from '~/server/generation/engines/model-events.server'

export type SseEvent = { event: string; id?: string; data: any }

/** Reads a response's events (data parsed as JSON) until `stopAfter` returns true or the stream ends. */
export async function readEvents(response: Response, stopAfter: (event: SseEvent) => boolean = () => false) {
  const events: SseEvent[] = []
  for await (const { event, id, data } of readServerSentEvents(response.body!)) {
    events.push({ event, id, data: JSON.parse(data) })
    if (stopAfter(events.at(-1)!)) break
  }
  return events
}

export function textOf(events: SseEvent[]) {
  return events
    .filter((e) => e.event === 'delta')
    .map((e) => e.data.text)
    .join('')
}
