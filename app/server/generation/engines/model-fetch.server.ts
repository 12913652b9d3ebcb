import http from 'node:http'
import https from 'node:https'
import { Readable } from 'node:stream'

const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) }
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

/** The SDK's `fetch` on node:http, which costs far less CPU per streamed piece than undici (docs/PERFORMANCE.md); SDK requests only. */
export function modelFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input)
  const agent = agents[url.protocol as keyof typeof agents]
  if (!agent) return Promise.reject(new TypeError(`Unsupported protocol: ${url.protocol}`))
  if (init.body != null && typeof init.body !== 'string') return Promise.reject(new TypeError('Only text bodies are supported'))
  const signal = init.signal
  if (signal?.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    let response: http.IncomingMessage | undefined
    const abort = () => {
      request.destroy(signal!.reason)
      response?.destroy(signal!.reason)
    }
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: init.method ?? 'GET', headers: Object.fromEntries(new Headers(init.headers)), agent },
      (incoming) => {
        response = incoming
        response.on('close', () => signal?.removeEventListener('abort', abort))
        const status = response.statusCode ?? 502
        const body = NULL_BODY_STATUSES.has(status) ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>)
        if (!body) response.resume()
        resolve(new Response(body, { status, statusText: response.statusMessage, headers: responseHeaders(response.rawHeaders) }))
      },
    )
    signal?.addEventListener('abort', abort, { once: true })
    request.on('error', (error) => {
      signal?.removeEventListener('abort', abort)
      reject(error)
    })
    request.end(init.body ?? undefined)
  })
}

function responseHeaders(raw: string[]) {
  const headers = new Headers()
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1])
  return headers
}
