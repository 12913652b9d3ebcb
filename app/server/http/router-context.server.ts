import { createContext } from 'react-router'

export const cspNonceContext = createContext<string>('')

export const requestIdContext = createContext<string>('')
