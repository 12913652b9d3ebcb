import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireUser } from '~/utils/auth.server'
import { getRemainingQuota } from '~/utils/quota.server'

export const meta: MetaFunction = () => [{ title: 'Create Narrative | Impact Narrative Studio' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  return { firstName: user.firstName, remaining: await getRemainingQuota(user.id) }
}

export default function DashboardPage() {
  const { firstName, remaining } = useLoaderData<typeof loader>()
  return (
    <div className="page">
      <header className="page-header">
        <h1>Create your Impact Narrative</h1>
        <p className="page-subtitle">Welcome, {firstName}.</p>
        <p className="quota">Limit: {remaining} narratives daily</p>
      </header>
    </div>
  )
}
