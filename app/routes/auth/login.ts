import type { ActionFunctionArgs } from 'react-router'
import { apiError, handleApi, readJson, methodNotAllowed } from '~/server/http/api.server'
import { toApiUser } from '~/server/accounts/api-auth.server'
import { LoginSchema } from '~/shared/auth-schemas'
import { AccountDisabledError, createSession, InvalidCredentialsError, verifyLogin } from '~/server/accounts/auth.server'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const { email, password } = await readJson(request, LoginSchema)
    try {
      const user = await verifyLogin(email, password)
      return Response.json({ token: await createSession(user.id, 'api'), user: toApiUser(user) })
    } catch (error) {
      if (error instanceof InvalidCredentialsError) return apiError(401, error.message)
      if (error instanceof AccountDisabledError) return apiError(403, error.message)
      throw error
    }
  })

export const loader = methodNotAllowed
