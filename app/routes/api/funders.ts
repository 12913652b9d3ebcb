import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router'
import { apiError, handleApi, jsonListResponse, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { createFunder, listFunders, toApiFunder } from '~/server/funders/funders.server'
import { callFromUpload, oneUploadEach } from '~/server/funders/call-file.server'
import { enforceCallReadingRateLimit } from '~/server/edge/limits.server'
import { FunderCreateSchema } from '~/shared/funder-schema'
import { isMultipart, readForm } from '~/server/http/form.server'

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    return jsonListResponse(await listFunders(user), toApiFunder)
  })

/** A new brief, from JSON, or from a form with `name` and the call's `file` (docs/api.md#funder-briefs). */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed()
    const user = await requireApiUser(request)
    await enforceCallReadingRateLimit(user.id)
    const input = await readFunderBody(request, user.id)
    return Response.json({ data: toApiFunder(await createFunder(user, input, request.signal)) }, { status: 201 })
  })

async function readFunderBody(request: Request, person: string) {
  if (!isMultipart(request)) return readJson(request, FunderCreateSchema)
  const { form, upload } = await oneUploadEach(request, person, async (reader) => {
    const form = await readForm(request, 'json')
    return { form, upload: await callFromUpload(form, reader) }
  })
  const parsed = FunderCreateSchema.safeParse({
    name: form.get('name') ?? undefined,
    callText: upload?.text ?? form.get('callText') ?? undefined,
  })
  if (!parsed.success) throw apiError(400, parsed.error.issues[0].message, parsed.error.flatten().fieldErrors)
  return { ...parsed.data, ...(upload ? { source: upload.source } : {}) }
}
