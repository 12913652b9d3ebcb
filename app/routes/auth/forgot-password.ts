import type { ActionFunctionArgs } from 'react-router'
import { handleApi, readJson, methodNotAllowed } from '~/server/http/api.server'
import { ForgotPasswordSchema } from '~/shared/auth-schemas'
import { enforceRateLimit } from '~/server/edge/limits.server'
import { requestPasswordReset } from '~/server/accounts/password-reset.server'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const { email } = await readJson(request, ForgotPasswordSchema)
    await enforceRateLimit('forgot', email)
    requestPasswordReset(email)
    return Response.json({ message: 'If an account exists for this email, a reset link has been sent.' })
  })

export const loader = methodNotAllowed
