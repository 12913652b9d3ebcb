import type { ActionFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { callFromUpload, oneUploadEach } from '~/server/funders/call-file.server'
import { understandCall } from '~/server/funders/understand.server'
import { enforceCallReadingRateLimit } from '~/server/edge/limits.server'
import { CallTextSchema, ExtractRequestSchema } from '~/shared/funder-schema'
import { isMultipart, readForm } from '~/server/http/form.server'

/** What the app understands of a call (JSON `{text}`, or a form's `file`), saving nothing. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed()
    const user = await requireApiUser(request)
    await enforceCallReadingRateLimit(user.id)
    const text = await readCallText(request, user.id)
    return Response.json({ data: await understandCall(text, request.signal) })
  })

async function readCallText(request: Request, person: string): Promise<string> {
  if (!isMultipart(request)) return (await readJson(request, ExtractRequestSchema)).text
  const upload = await oneUploadEach(request, person, async (reader) => callFromUpload(await readForm(request, 'json'), reader))
  if (!upload) throw apiError(400, 'Send the call as a file (the form field "file") or as JSON {"text": ...}')
  const parsed = CallTextSchema.safeParse(upload.text)
  if (!parsed.success) throw apiError(422, parsed.error.issues[0].message)
  return parsed.data
}

export const loader = methodNotAllowed
