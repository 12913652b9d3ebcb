import type { LoaderFunctionArgs } from 'react-router'
import { calendarOf, calendarOwner } from '~/server/narratives/calendar.server'

/**
 * A person's deadlines for their calendar, at a secret address (docs/decisions/052): calendars send no
 * cookie, so the address is the credential, and a wrong one is any missing page.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const owner = await calendarOwner(params.feed ?? '')
  if (!owner)
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
  return new Response(await calendarOf(owner.id), {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="deadlines.ics"',
      'Cache-Control': 'private, no-store',
    },
  })
}
