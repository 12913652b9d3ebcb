import { REQUEST_ID_ELEMENT, useRequestId } from '~/hooks/use-request-id'

export function RequestIdNote() {
  const requestId = useRequestId()
  if (!requestId) return null
  return (
    <p className="request-id">
      Request id: <code id={REQUEST_ID_ELEMENT}>{requestId}</code>
    </p>
  )
}
