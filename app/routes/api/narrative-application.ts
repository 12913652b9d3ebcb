import type { LoaderFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { getApplication, toApiApplication } from '~/server/narratives/application.server'

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const application = await getApplication({ id: params.id ?? '', viewer: user, signal: request.signal })
    // A narrative written for no brief is no application: the same answer as one that is not the caller's.
    if (!application) return apiError(404, 'Application not found')
    return Response.json({ data: toApiApplication(application) })
  })

export const action = methodNotAllowed
