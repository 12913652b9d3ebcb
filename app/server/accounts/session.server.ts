import { createCookieSessionStorage } from 'react-router'
import { cookieDefaults } from '~/server/http/cookies.server'

/** Only a signed, random session id: the session itself is a database row (decision 004). */
export const authSessionStorage = createCookieSessionStorage<{ sessionId: string }>({
  cookie: { name: '__session', ...cookieDefaults },
})
