import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { deleteFunder, getFunder, toApiFunder, updateFunder } from '~/server/funders/funders.server'
import { enforceCallReadingRateLimit } from '~/server/edge/limits.server'
import { FunderUpdateSchema } from '~/shared/funder-schema'

const NOT_FOUND = 'Funder brief not found'

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const funder = await getFunder(user, params.id ?? '')
    if (!funder) return apiError(404, NOT_FOUND)
    return Response.json({ data: toApiFunder(funder) })
  })

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const id = params.id ?? ''
    if (request.method === 'PUT') {
      if (!(await getFunder(user, id))) return apiError(404, NOT_FOUND)
      const input = await readJson(request, FunderUpdateSchema)
      if (input.callText !== undefined && input.priorities === undefined) await enforceCallReadingRateLimit(user.id)
      const funder = await updateFunder(user, id, input, request.signal)
      if (!funder) return apiError(404, NOT_FOUND)
      return Response.json({ data: toApiFunder(funder) })
    }
    if (request.method === 'DELETE') {
      if (!(await deleteFunder(user, id))) return apiError(404, NOT_FOUND)
      return Response.json({ message: 'Funder brief deleted.' })
    }
    return methodNotAllowed()
  })
