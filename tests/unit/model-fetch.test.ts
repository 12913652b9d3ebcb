import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { modelFetch } from '~/server/generation/engines/model-fetch.server'

// A real HTTP server on loopback: what modelFetch sends, and how it hands back what comes.
let server: http.Server
let origin: string
let received: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = []
let release = () => {}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      received.push({ method: request.method, headers: request.headers, body })
      if (request.url === '/empty') return void response.writeHead(204).end()
      if (request.url === '/error') return void response.writeHead(429, { 'Retry-After': '1' }).end('{"error":"slow down"}')
      // The second piece waits until the test releases it: pieces must arrive as they are sent.
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'X-Request-Id': 'req-1' })
      response.write('data: one\n\n')
      release = () => response.end('data: two\n\n')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))
beforeEach(() => (received = []))

describe('modelFetch', () => {
  it('sends the method, headers and body, and streams the answer piece by piece', async () => {
    const response = await modelFetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: new Headers({ Authorization: 'Bearer key', 'Content-Type': 'application/json' }),
      body: '{"stream":true}',
    })
    expect(received).toEqual([expect.objectContaining({ method: 'POST', body: '{"stream":true}' })])
    expect(received[0].headers).toMatchObject({ authorization: 'Bearer key', 'content-type': 'application/json' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toBe('req-1')
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    expect(decoder.decode((await reader.read()).value)).toBe('data: one\n\n')
    release()
    expect(decoder.decode((await reader.read()).value)).toBe('data: two\n\n')
    expect((await reader.read()).done).toBe(true)
  })

  it('gives error answers with their status, headers and text, and no-content answers without a body', async () => {
    const error = await modelFetch(`${origin}/error`, { method: 'POST', body: '{}' })
    expect([error.status, error.headers.get('retry-after'), await error.text()]).toEqual([429, '1', '{"error":"slow down"}'])
    const empty = await modelFetch(`${origin}/empty`)
    expect([empty.status, empty.body]).toEqual([204, null])
  })

  it('ends the stream with an abort error when its signal aborts mid-stream', async () => {
    const controller = new AbortController()
    const response = await modelFetch(`${origin}/v1/chat/completions`, { method: 'POST', body: '{}', signal: controller.signal })
    const reader = response.body!.getReader()
    await reader.read()
    controller.abort()
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' })
    await expect(modelFetch(`${origin}/`, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' })
    expect(received).toHaveLength(1)
  })

  it('refuses what the SDK never sends to the model: other protocols and non-text bodies', async () => {
    await expect(modelFetch('ftp://example.org/')).rejects.toThrow('Unsupported protocol')
    await expect(modelFetch(`${origin}/`, { method: 'POST', body: new Uint8Array([1]) })).rejects.toThrow('Only text bodies')
    expect(received).toEqual([])
  })
})
