import type { LoaderFunctionArgs } from 'react-router'
import { handleApi, requireApiAdmin, methodNotAllowed } from '~/server/http/api.server'
import { listUsers } from '~/server/accounts/users.server'

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireApiAdmin(request)
    const users = await listUsers()
    return Response.json({
      users: users.map((user) => ({
        id: user.id,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        createdAt: user.createdAt,
      })),
    })
  })

export const action = methodNotAllowed
