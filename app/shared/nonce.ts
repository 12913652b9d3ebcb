import { createContext, useContext } from 'react'

// The per-request CSP nonce, handed from entry.server to every inline script React renders.
export const NonceContext = createContext<string>('')
export const useNonce = () => useContext(NonceContext)
