import type { HeadersFunction } from 'react-router'

/**
 * The `headers` of a page whose action may answer a rate limit (refusalReply): a page's answer carries
 * only the headers this returns (and cookies), so the action's Retry-After reaches the client.
 */
export const rateLimitedPageHeaders: HeadersFunction = ({ actionHeaders }) => actionHeaders
