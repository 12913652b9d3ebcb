import type { ActionFunctionArgs } from 'react-router'
import { handleApi, readJson, methodNotAllowed } from '~/server/http/api.server'
import { toApiUser } from '~/server/accounts/api-auth.server'
import { RegisterSchema } from '~/shared/auth-schemas'
import { enforceRateLimit } from '~/server/edge/limits.server'
import { createSession } from '~/server/accounts/auth.server'
import { createUser } from '~/server/accounts/users.server'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const input = await readJson(request, RegisterSchema)
    await enforceRateLimit('signup')
    const user = await createUser(input)
    return Response.json({ token: await createSession(user.id, 'api'), user: toApiUser(user) }, { status: 201 })
  })

export const loader = methodNotAllowed
