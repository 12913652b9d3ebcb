import type { ActionFunctionArgs } from 'react-router'
import { handleApi, methodNotAllowed } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { renewCalendarUrl } from '~/server/narratives/calendar.server'

/** A new calendar address for the caller; the old one answers 404 from now on. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed()
    const user = await requireApiUser(request)
    return Response.json({ calendarUrl: await renewCalendarUrl(user.id) })
  })

export const loader = methodNotAllowed
