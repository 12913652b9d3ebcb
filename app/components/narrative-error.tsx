import { isRouteErrorResponse, Link, useActionData, useRouteError } from 'react-router'
import { RequestIdNote } from '~/components/request-id'
import { ActionToast } from '~/components/toaster'

export function NarrativeErrorBoundary() {
  const error = useRouteError()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  // A save to a narrative deleted meanwhile answers 404 with its toast, then the page's reload finds it gone.
  // The page may never render in between (React drops the interim render when the reload answers first), so
  // the toast is raised here too; the Toaster shows one answer's toast once.
  const actionData = useActionData<object>()
  return (
    <div className="page">
      <ActionToast from={actionData} />
      <div className="card narrow error-page" role="alert">
        <h1>{notFound ? 'Narrative not found' : 'Failed to load narrative details'}</h1>
        <RequestIdNote />
        <p>
          <Link to="/admin/narratives" className="button button-secondary">
            Back to List
          </Link>
        </p>
      </div>
    </div>
  )
}
