import http from 'node:http'
import { readServerSentEvents } from '~/server/generation/engines/model-events.server'
import { now } from './stats'

export type StreamResult = {
  firstTextMs: number
  totalMs: number
  maxGapMs: number
  text: string
  complete: boolean
  /** How the stream ended: its status, and its last event with the start of its data. */
  ending: string
}

/**
 * Reads an SSE response to its end, timing the first text and the longest silence between pieces.
 * `pieceOf` extracts the text of one event (an OpenAI chunk or one of our `delta`s).
 */
export async function readStream(
  response: Response,
  startedAt: number,
  pieceOf: (event: string, data: string) => string | null,
  isEnd: (event: string, data: string) => boolean,
) {
  let text = ''
  let firstTextMs = NaN
  let last = NaN
  let maxGapMs = 0
  let complete = false
  let ending = `${response.status}`
  for await (const { event, data } of readServerSentEvents(response.body!)) {
    ending = `${response.status} ${event} ${data.slice(0, 80)}`
    if (isEnd(event, data)) complete = true
    const piece = pieceOf(event, data)
    if (!piece) continue
    const t = now()
    if (Number.isNaN(firstTextMs)) firstTextMs = t - startedAt
    else maxGapMs = Math.max(maxGapMs, t - last)
    last = t
    text += piece
  }
  return { firstTextMs, totalMs: now() - startedAt, maxGapMs, text, complete, ending } satisfies StreamResult
}

export const openAiPiece = (_event: string, data: string) => {
  if (!data || data === '[DONE]') return null
  return (JSON.parse(data).choices?.[0]?.delta?.content as string | undefined) || null
}
export const openAiEnd = (_event: string, data: string) => data === '[DONE]'

export const appPiece = (event: string, data: string) => (event === 'delta' ? (JSON.parse(data).text as string) : null)
export const appEnd = (event: string) => event === 'done'

// Node's fetch costs the client more CPU than the server spends on a small page; on a 2-core machine
// that would measure the client. Plain http with keep-alive is light.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

/** GETs a URL over a kept-alive connection; resolves with the status once the body has arrived. */
export function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent, headers: { 'Accept-Encoding': 'gzip', ...headers } }, (response) => {
        response.on('data', () => {})
        response.on('end', () => resolve(response.statusCode ?? 0))
      })
      .on('error', reject)
  })
}
