/**
 * The `data` of each Server-Sent Event in a byte stream: the wire format of OpenAI-compatible
 * streaming. Plain string work, because the SDK's general-purpose parser costs more CPU than the rest
 * of a stream's path together (see docs/PERFORMANCE.md).
 */
export async function* readEventData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  const reader = body.getReader()
  let buffer = ''
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += decoder.decode(read.value, { stream: true })
    if (buffer.includes('\r')) buffer = buffer.replace(/\r\n?/g, '\n')
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const data = dataOf(buffer.slice(0, end))
      buffer = buffer.slice(end + 2)
      if (data !== null) yield data
    }
  }
  const last = dataOf(buffer + decoder.decode())
  if (last !== null) yield last
}

function dataOf(block: string): string | null {
  let data: string | null = null
  for (const line of block.split('\n')) {
    if (!line.startsWith('data:')) continue
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5)
    data = data === null ? value : `${data}\n${value}`
  }
  return data
}
