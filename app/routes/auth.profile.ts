import type { LoaderFunctionArgs } from '@remix-run/node'
import { handleApi, requireApiUser, toApiUser, methodNotAllowed } from '~/utils/api.server'
import { getRemainingQuota } from '~/utils/quota.server'

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
