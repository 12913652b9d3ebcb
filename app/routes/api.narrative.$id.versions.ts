import type { LoaderFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed, requireApiUser } from '~/server/http/api.server'
import { listVersions, toApiVersion } from '~/server/narratives/versions.server'

/** Every text the narrative has had, newest first. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const versions = await listVersions({ id: params.id ?? '', viewer: user })
    if (!versions) return apiError(404, 'Narrative not found')
    return Response.json({ data: versions.map(toApiVersion) })
  })

export const action = methodNotAllowed
