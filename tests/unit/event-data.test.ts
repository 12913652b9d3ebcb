import { readEventData } from '~/utils/event-data.server'

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
  for await (const data of readEventData(body)) out.push(data)
  return out
}

describe('readEventData', () => {
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
})
