import type { LoaderFunctionArgs, MetaFunction } from 'react-router'
import { useLoaderData } from 'react-router'
import { requireAdmin } from '~/server/accounts/auth.server'
import { formatDate, useLocalTimeZone } from '~/shared/dates'
import { listUsers } from '~/server/accounts/users.server'

export const meta: MetaFunction = () => [{ title: 'Manage Users | Impact Narrative Studio' }]

export async function loader({ request, url }: LoaderFunctionArgs) {
  await requireAdmin({ request, url })
  return { users: await listUsers() }
}

export default function UsersPage() {
  const { users } = useLoaderData<typeof loader>()
  const timeZone = useLocalTimeZone()
  return (
    <div className="page">
      <header className="page-header">
        <h1>Manage Users</h1>
        <p className="page-subtitle">{users.length === 1 ? '1 account' : `${users.length} accounts`}</p>
      </header>
      <div className="table-wrap card">
        <table className="table">
          <caption className="visually-hidden">All user accounts</caption>
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">Email</th>
              <th scope="col">First Name</th>
              <th scope="col">Last Name</th>
              <th scope="col">Created At</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user, index) => (
              <tr key={user.id}>
                <td>{index + 1}</td>
                <td>
                  {user.email}
                  {user.isAdmin ? <span className="badge">Admin</span> : null}
                </td>
                <td>{user.firstName}</td>
                <td>{user.lastName}</td>
                <td>{formatDate(user.createdAt, timeZone)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
