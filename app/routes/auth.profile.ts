import type { LoaderFunctionArgs } from 'react-router'
import { handleApi, requireApiUser, toApiUser, methodNotAllowed } from '~/server/http/api.server'
import { getQuota } from '~/server/generation/quota.server'

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const quota = await getQuota(user.id)
    return Response.json({
      ...toApiUser(user),
      name: `${user.firstName} ${user.lastName}`.trim(),
      count: quota.remaining,
      resetsAt: quota.resetsAt.toISOString(),
    })
  })

export const action = methodNotAllowed
