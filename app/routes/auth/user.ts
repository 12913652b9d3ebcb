import type { ActionFunctionArgs } from 'react-router'
import { handleApi, methodNotAllowed, readJson, toApiUserSummary } from '~/server/http/api.server'
import { requireApiAdmin } from '~/server/accounts/api-auth.server'
import { UserControlsSchema } from '~/shared/auth-schemas'
import { updateUserControls } from '~/server/accounts/user-controls.server'

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'PATCH') return methodNotAllowed()
    const admin = await requireApiAdmin(request)
    const changes = await readJson(request, UserControlsSchema)
    const user = await updateUserControls(admin, params.id ?? '', changes)
    return Response.json({ user: toApiUserSummary(user) })
  })

export const loader = methodNotAllowed
