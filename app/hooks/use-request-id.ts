import { createContext, useContext } from 'react'
import { useLocation } from 'react-router'

/** In the browser, entry.client reads it back from the error page so that hydration shows the same id. */
export const RequestIdContext = createContext('')

export const REQUEST_ID_ELEMENT = 'request-id'

let documentLocationKey: string | undefined

/** After a client-side navigation the failed request is one whose id the browser never saw: none, rather than a wrong one. */
export function useRequestId(): string {
  const requestId = useContext(RequestIdContext)
  const { key } = useLocation()
  if (typeof document === 'undefined') return requestId
  documentLocationKey ??= key
  return key === documentLocationKey ? requestId : ''
}
