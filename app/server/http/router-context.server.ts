import { createContext } from 'react-router'

/** The CSP nonce of the request being rendered, set by the HTTP server for entry.server. */
export const cspNonceContext = createContext<string>('')

/** The id the request is logged under, for the error pages entry.server renders. */
export const requestIdContext = createContext<string>('')
