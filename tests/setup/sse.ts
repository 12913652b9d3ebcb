export type SseEvent = { event: string; id?: string; data: any }

/** Reads Server-Sent Events from a response until `stopAfter` returns true or the stream ends. */
export async function readEvents(response: Response, stopAfter: (event: SseEvent) => boolean = () => false) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const events: SseEvent[] = []
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += value
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const event = parseEvent(buffer.slice(0, end))
      buffer = buffer.slice(end + 2)
      if (!event) continue
      events.push(event)
      if (stopAfter(event)) {
        await reader.cancel()
        return events
      }
    }
  }
  return events
}

function parseEvent(block: string): SseEvent | null {
  const fields: Record<string, string> = {}
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart()
  }
  if (!fields.event) return null
  return { event: fields.event, id: fields.id, data: JSON.parse(fields.data) }
}

export function textOf(events: SseEvent[]) {
  return events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('')
}
