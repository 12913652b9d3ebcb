import { readServerSentEventBatches, readServerSentEvents } from '~/server/generation/engines/model-events.server'

function streamOf(...chunks: string[]) {
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      controller.close()
    },
  })
}

async function collect(body: ReadableStream<Uint8Array>) {
  const out: string[] = []
  for await (const { data } of readServerSentEvents(body)) out.push(data)
  return out
}

describe('readServerSentEvents', () => {
  it('yields the data of each event, across chunk boundaries and split characters', async () => {
    const euro = new TextEncoder().encode('data: {"t":"€"}\n\n')
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: {"a":1}\n\nda'))
        controller.enqueue(new TextEncoder().encode('ta: [DONE]\n\n'))
        controller.enqueue(euro.slice(0, 12)) // cuts the euro sign's bytes in two
        controller.enqueue(euro.slice(12))
        controller.close()
      },
    })
    expect(await collect(body)).toEqual(['{"a":1}', '[DONE]', '{"t":"€"}'])
  })

  it('handles CRLF line endings, comments, other fields, multi-line data and a last event without a blank line', async () => {
    const body = streamOf(': keep-alive\r\n\r\nevent: x\r\nid: 3\r\ndata: one\r\ndata: two\r\n\r\n', 'data:no-space\n\n', 'data: tail')
    expect(await collect(body)).toEqual(['one\ntwo', 'no-space', 'tail'])
  })

  it('keeps a CRLF split between two reads as one line end', async () => {
    const body = streamOf('data: one\r', '\ndata: two\r\n\r', '\n')
    expect(await collect(body)).toEqual(['one\ntwo'])
  })

  it('gives each event its name and id, and a plain data event the name message', async () => {
    const events = []
    for await (const event of readServerSentEvents(streamOf('id: 7\nevent: delta\ndata: {"text":"a"}\n\ndata: [DONE]\n\n')))
      events.push(event)
    expect(events).toEqual([
      { event: 'delta', id: '7', data: '{"text":"a"}' },
      { event: 'message', id: undefined, data: '[DONE]' },
    ])
  })

  it('cancels the stream when the reader stops early', async () => {
    let cancelled = false
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: x\n\n'))
      },
      cancel() {
        cancelled = true
      },
    })
    for await (const event of readServerSentEvents(body)) if (event.data === 'x') break
    expect(cancelled).toBe(true)
  })

  it('groups the events that one read completes, and yields no empty groups', async () => {
    const batches: string[][] = []
    for await (const events of readServerSentEventBatches(
      streamOf('data: a\n\ndata: b\n\nda', 'ta: c', '\n\n', ': only a comment\n\n', 'data: d'),
    )) {
      batches.push(events.map((event) => event.data))
    }
    expect(batches).toEqual([['a', 'b'], ['c'], ['d']])
  })
})
