import type { ActionFunctionArgs } from 'react-router'
import { getBearerToken, handleApi, methodNotAllowed } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { deleteSession } from '~/server/accounts/auth.server'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    await requireApiUser(request)
    await deleteSession(getBearerToken(request)!)
    return Response.json({ ok: true })
  })

export const loader = methodNotAllowed
