import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { RequestIdNote } from '~/components/request-id'

export function NarrativeErrorBoundary() {
  const error = useRouteError()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="page">
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
