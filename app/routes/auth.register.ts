import type { ActionFunctionArgs } from '@remix-run/node'
import { apiError, handleApi, readJson, toApiUser, methodNotAllowed } from '~/utils/api.server'
import { RegisterSchema } from '~/utils/auth-schemas'
import { enforceRateLimit } from '~/utils/rate-limit.server'
import { createSession } from '~/utils/auth.server'
import { createUser, EmailTakenError } from '~/utils/users.server'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const input = await readJson(request, RegisterSchema)
    enforceRateLimit('signup')
    try {
      const user = await createUser(input)
      return Response.json({ token: await createSession(user.id, 'api'), user: toApiUser(user) }, { status: 201 })
    } catch (error) {
      if (error instanceof EmailTakenError) return apiError(409, error.message)
      throw error
    }
  })

export const loader = methodNotAllowed
