export type ServerSentEvent = { event: string; id?: string; data: string }

/** Plain string work: the SDK's parser costs more CPU than the rest of a stream's path together (docs/PERFORMANCE.md). */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  for await (const events of readServerSentEventBatches(body)) yield* events
}

/** Grouped by read: a busy server finds several in one, and a batch saves a round through the async iterators per event. */
export async function* readServerSentEventBatches(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent[]> {
  const decoder = new TextDecoder()
  const reader = body.getReader()
  let buffer = ''
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true })
      // A CR at the very end waits for the next read, which may bring its LF.
      if (buffer.includes('\r')) {
        const pending = buffer.endsWith('\r') ? '\r' : ''
        buffer = buffer.slice(0, buffer.length - pending.length).replace(/\r\n?/g, '\n') + pending
      }
      const events: ServerSentEvent[] = []
      let end: number
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const event = parseEvent(buffer.slice(0, end))
        buffer = buffer.slice(end + 2)
        if (event) events.push(event)
      }
      if (events.length) yield events
    }
    const last = parseEvent(buffer + decoder.decode())
    if (last) yield [last]
  } finally {
    await reader.cancel().catch(() => {})
  }
}

function parseEvent(block: string): ServerSentEvent | null {
  let event = 'message'
  let id: string | undefined
  let data: string | null = null
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const field = line.slice(0, colon)
    const value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1)
    if (field === 'data') data = data === null ? value : `${data}\n${value}`
    else if (field === 'event') event = value
    else if (field === 'id') id = value
  }
  return data === null ? null : { event, id, data }
}
