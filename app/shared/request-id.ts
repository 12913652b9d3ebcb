import { createContext, useContext } from 'react'
import { useLocation } from 'react-router'

/**
 * The id of the request that rendered this document (X-Request-Id, and the requestId of its log
 * lines). The server sets it for each render; in the browser, entry.client reads it back from the
 * error page so that hydration shows the same id.
 */
export const RequestIdContext = createContext('')

/** The element an error page shows the id in. */
export const REQUEST_ID_ELEMENT = 'request-id'

// The browser's first location: the one the document, and so its request id, belongs to.
let documentLocationKey: string | undefined

/**
 * The request id an error page names. After a client-side navigation the failed request is another
 * one, whose id the browser never saw: then there is none, rather than a wrong one.
 */
export function useRequestId(): string {
  const requestId = useContext(RequestIdContext)
  const { key } = useLocation()
  if (typeof document === 'undefined') return requestId
  documentLocationKey ??= key
  return key === documentLocationKey ? requestId : ''
}
