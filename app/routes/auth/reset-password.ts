import type { ActionFunctionArgs } from 'react-router'
import { apiError, handleApi, readJson, methodNotAllowed } from '~/server/http/api.server'
import { ApiResetPasswordSchema } from '~/shared/auth-schemas'
import { enforceRateLimit } from '~/server/edge/limits.server'
import { resetPassword } from '~/server/accounts/password-reset.server'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const { token, newPassword } = await readJson(request, ApiResetPasswordSchema)
    await enforceRateLimit('reset')
    if (!(await resetPassword(token, newPassword))) {
      return apiError(400, 'This password reset link has expired or is invalid')
    }
    return Response.json({ message: 'Password reset successfully!' })
  })

export const loader = methodNotAllowed
