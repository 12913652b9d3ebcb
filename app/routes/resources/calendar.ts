import type { LoaderFunctionArgs } from 'react-router'
import { enforceCalendarRateLimit } from '~/server/edge/limits.server'
import { RateLimitError } from '~/server/edge/rate-limit.server'
import { calendarOf, calendarOwner } from '~/server/narratives/calendar.server'

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }

/** A calendar sends no cookie: the secret address is the credential (docs/decisions/052), and a wrong one is any missing page. */
export async function loader({ params }: LoaderFunctionArgs) {
  const owner = await calendarOwner(params.feed ?? '')
  if (!owner) return new Response('Not found', { status: 404, headers: TEXT })
  try {
    await enforceCalendarRateLimit(owner.id)
  } catch (error) {
    if (!(error instanceof RateLimitError)) throw error
    return new Response(error.message, { status: 429, headers: { ...TEXT, 'Retry-After': String(error.retryAfterSeconds) } })
  }
  return new Response(await calendarOf(owner.id), {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="deadlines.ics"',
      'Cache-Control': 'private, no-store',
    },
  })
}
