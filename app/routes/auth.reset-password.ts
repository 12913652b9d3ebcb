import type { ActionFunctionArgs } from '@remix-run/node'
import { apiError, handleApi, readJson, methodNotAllowed } from '~/utils/api.server'
import { ApiResetPasswordSchema } from '~/utils/auth-schemas'
import { enforceRateLimit } from '~/utils/rate-limit.server'
import { resetPassword } from '~/utils/password-reset.server'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const { token, newPassword } = await readJson(request, ApiResetPasswordSchema)
    enforceRateLimit('reset')
    if (!(await resetPassword(token, newPassword))) {
      return apiError(400, 'This password reset link has expired or is invalid')
    }
    return Response.json({ message: 'Password reset successfully!' })
  })

export const loader = methodNotAllowed
