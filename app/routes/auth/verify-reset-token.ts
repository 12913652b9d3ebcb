import type { LoaderFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed } from '~/server/http/api.server'
import { isResetTokenValid } from '~/server/accounts/password-reset.server'

export const loader = ({ url }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const token = url.searchParams.get('token')
    if (!token || token.length > 200) return apiError(400, 'Invalid or missing reset token')
    if (!(await isResetTokenValid(token))) return apiError(400, 'This password reset link has expired or is invalid')
    return Response.json({ valid: true })
  })

export const action = methodNotAllowed
