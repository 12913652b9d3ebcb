import type { ActionFunctionArgs } from 'react-router'
import { getBearerToken, handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { changePassword } from '~/server/accounts/account.server'
import { ApiChangePasswordSchema } from '~/shared/auth-schemas'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const { currentPassword, newPassword } = await readJson(request, ApiChangePasswordSchema)
    await changePassword(user, { currentPassword, newPassword, keepSession: getBearerToken(request)! })
    return Response.json({ message: 'Your password is changed. Every other session and token is signed out.' })
  })

export const loader = methodNotAllowed
