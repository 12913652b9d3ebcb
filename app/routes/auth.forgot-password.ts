import type { ActionFunctionArgs } from '@remix-run/node'
import { handleApi, readJson, methodNotAllowed } from '~/utils/api.server'
import { ForgotPasswordSchema } from '~/utils/auth-schemas'
import { enforceRateLimit } from '~/utils/rate-limit.server'
import { requestPasswordReset } from '~/utils/password-reset.server'

// The same answer for known and unknown emails.
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const { email } = await readJson(request, ForgotPasswordSchema)
    enforceRateLimit('forgot', email)
    await requestPasswordReset(email)
    return Response.json({ message: 'If an account exists for this email, a reset link has been sent.' })
  })

export const loader = methodNotAllowed
