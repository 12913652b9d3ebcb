import type { ActionFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { answerEvidenceCheck } from '~/server/coach/coach.server'
import { refusalOf } from '~/server/http/refusal-reply.server'
import { refusalResponse } from '~/server/platform/refused-error.server'
import { EvidenceCheckSchema } from '~/shared/evidence'
import { parseForm } from '~/shared/form'
import { readForm } from '~/server/http/form.server'

/** The dashboard's evidence coach as its owner types: the API's check, for a signed-in page. */
export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const submission = parseForm(await readForm(request, 'json'), EvidenceCheckSchema)
  if (submission.status !== 'success') return Response.json({ error: 'The fields could not be read.' }, { status: 400 })
  try {
    return Response.json({ check: await answerEvidenceCheck(user.id, submission.value, request.signal) })
  } catch (error) {
    return refusalResponse(refusalOf(error), 'json')
  }
}
