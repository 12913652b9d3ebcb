import type { ActionFunctionArgs } from 'react-router'
import { handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { emailLinkSent, requestEmailChange } from '~/server/accounts/email-change.server'
import { EmailChangeSchema } from '~/shared/auth-schemas'

/** 202, the same whether or not the address has an account (decision 022). */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const { email, currentPassword } = await readJson(request, EmailChangeSchema)
    await requestEmailChange(user, { email, currentPassword })
    return Response.json({ message: emailLinkSent(email) }, { status: 202 })
  })

export const loader = methodNotAllowed
