import type { ActionFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { getNarrative, toApiNarrative } from '~/server/narratives/narratives.server'
import { restoreVersion } from '~/server/narratives/versions.server'

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    if (request.method !== 'POST') return methodNotAllowed()
    const id = params.id ?? ''
    if (!(await restoreVersion({ id, versionId: params.versionId ?? '', viewer: user, signal: request.signal })))
      return apiError(404, 'Version not found')
    return Response.json({ data: toApiNarrative((await getNarrative({ id, viewer: user }))!) })
  })

export const loader = methodNotAllowed
