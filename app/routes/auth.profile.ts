import type { LoaderFunctionArgs } from 'react-router'
import { handleApi, requireApiUser, toApiUser, methodNotAllowed } from '~/server/http/api.server'
import { getRemainingQuota } from '~/server/generation/quota.server'

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    return Response.json({
      ...toApiUser(user),
      name: `${user.firstName} ${user.lastName}`.trim(),
      count: await getRemainingQuota(user.id),
    })
  })

export const action = methodNotAllowed
