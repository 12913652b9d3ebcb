import type { ActionFunctionArgs } from 'react-router'
import { handleApi, readJson, methodNotAllowed } from '~/server/http/api.server'
import { toApiUser } from '~/server/accounts/api-auth.server'
import { LoginSchema } from '~/shared/auth-schemas'
import { createSession, verifyLogin } from '~/server/accounts/auth.server'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const { email, password } = await readJson(request, LoginSchema)
    const user = await verifyLogin(email, password)
    return Response.json({ token: await createSession(user.id, 'api'), user: toApiUser(user) })
  })

export const loader = methodNotAllowed
