import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { REQUEST_ID_ELEMENT, RequestIdContext } from '~/hooks/use-request-id'

// An error page names the request it was served for; hydration must render the same id.
const requestId = document.getElementById(REQUEST_ID_ELEMENT)?.textContent ?? ''

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RequestIdContext.Provider value={requestId}>
        <HydratedRouter />
      </RequestIdContext.Provider>
    </StrictMode>,
  )
})
