import type { ActionFunctionArgs } from '@remix-run/node'
import { getBearerToken, handleApi, requireApiUser, methodNotAllowed } from '~/utils/api.server'
import { deleteSession } from '~/utils/auth.server'

/** Revokes the bearer token the request carries. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    await requireApiUser(request)
    await deleteSession(getBearerToken(request)!)
    return Response.json({ ok: true })
  })

export const loader = methodNotAllowed
