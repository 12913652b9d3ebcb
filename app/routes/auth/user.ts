import type { ActionFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed, readJson, toApiUserSummary } from '~/server/http/api.server'
import { requireApiAdmin } from '~/server/accounts/api-auth.server'
import { UserControlsSchema } from '~/shared/auth-schemas'
import { updateUserControls, UserControlError } from '~/server/accounts/user-controls.server'

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'PATCH') return methodNotAllowed()
    const admin = await requireApiAdmin(request)
    const changes = await readJson(request, UserControlsSchema)
    try {
      const user = await updateUserControls(admin, params.id ?? '', changes)
      return Response.json({ user: toApiUserSummary(user) })
    } catch (error) {
      if (error instanceof UserControlError) return apiError(error.status, error.message)
      throw error
    }
  })

export const loader = methodNotAllowed
