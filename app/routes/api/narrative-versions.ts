import type { LoaderFunctionArgs } from 'react-router'
import { apiError, handleApi, jsonListResponse, methodNotAllowed, readPage } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { listVersions, toApiVersion, VERSIONS_KEPT } from '~/server/narratives/versions.server'

export const loader = ({ request, params, url }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const versions = await listVersions({ id: params.id ?? '', viewer: user, ...readPage(url, VERSIONS_KEPT) })
    if (!versions) return apiError(404, 'Narrative not found')
    return jsonListResponse(versions.data, toApiVersion, { pagination: versions.pagination })
  })

export const action = methodNotAllowed
