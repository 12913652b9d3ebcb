import type { ActionFunctionArgs } from 'react-router'
import { handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { answerEvidenceCheck } from '~/server/coach/coach.server'
import { EvidenceCheckSchema } from '~/shared/evidence'

/** The evidence coach on the form's fields (docs/api.md#checking-the-evidence): nothing is saved or spent. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed()
    const user = await requireApiUser(request)
    const fields = await readJson(request, EvidenceCheckSchema)
    return Response.json({ data: await answerEvidenceCheck(user.id, fields, request.signal) })
  })

export const loader = methodNotAllowed
