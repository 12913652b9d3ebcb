import type { HeadersFunction } from 'react-router'
import { RateLimitError } from '~/server/edge/rate-limit.server'
import { dataWithError } from '~/server/http/toast.server'

/**
 * The `headers` of a page whose action may answer rateLimitedPage: a page's answer carries only the
 * headers this returns (and cookies), so the action's Retry-After reaches the client.
 */
export const rateLimitedPageHeaders: HeadersFunction = ({ actionHeaders }) => actionHeaders

export function rateLimitedPage<T extends object>(data: T, error: RateLimitError) {
  return dataWithError(data, error.message, { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } })
}

/**
 * A page action's step that a rate limit may refuse: its value, or, refused, the page's 429 answer
 * carrying `reply(message)` as its data. Any other error goes on.
 */
export async function unlessRateLimited<T, D extends object>(step: () => Promise<T>, reply: (message: string) => D) {
  try {
    return { value: await step(), refused: null }
  } catch (error) {
    if (!(error instanceof RateLimitError)) throw error
    return { value: null, refused: rateLimitedPage(reply(error.message), error) }
  }
}
