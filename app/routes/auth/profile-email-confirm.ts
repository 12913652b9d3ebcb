import type { ActionFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser, toApiUser } from '~/server/accounts/api-auth.server'
import { confirmEmailChange, EMAIL_LINK_INVALID, EMAIL_TAKEN_NOW } from '~/server/accounts/email-change.server'
import { EmailConfirmSchema } from '~/shared/auth-schemas'

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const { token } = await readJson(request, EmailConfirmSchema)
    const outcome = await confirmEmailChange(user, token)
    if (outcome.status === 'invalid') return apiError(400, EMAIL_LINK_INVALID)
    if (outcome.status === 'taken') return apiError(409, EMAIL_TAKEN_NOW)
    return Response.json({ user: toApiUser({ ...user, email: outcome.email }) })
  })

export const loader = methodNotAllowed
