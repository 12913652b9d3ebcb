import type { ActionFunctionArgs } from '@remix-run/node'
import { apiError, handleApi, readJson, toApiUser, methodNotAllowed } from '~/utils/api.server'
import { LoginSchema } from '~/utils/auth-schemas'
import { enforceRateLimit } from '~/utils/rate-limit.server'
import { createSession, InvalidCredentialsError, verifyLogin } from '~/utils/auth.server'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const { email, password } = await readJson(request, LoginSchema)
    enforceRateLimit('login', email)
    try {
      const user = await verifyLogin(email, password)
      return Response.json({ token: await createSession(user.id, 'api'), user: toApiUser(user) })
    } catch (error) {
      if (error instanceof InvalidCredentialsError) return apiError(401, error.message)
      throw error
    }
  })

export const loader = methodNotAllowed
