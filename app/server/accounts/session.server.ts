import { createCookieSessionStorage } from 'react-router'
import { createToastUtilsWithCustomSession } from 'remix-toast'
import { getEnv } from '~/server/platform/env.server'

const env = getEnv()

// Secure whenever the app is served over HTTPS; a plain-HTTP self-hosted install on a LAN still works.
const cookieDefaults = {
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  secrets: env.sessionSecrets,
  secure: env.appOrigin.startsWith('https:'),
}

/** The cookie carries only a signed, random session id; the session itself is a database row. */
export const authSessionStorage = createCookieSessionStorage<{ sessionId: string }>({
  cookie: { name: '__session', ...cookieDefaults },
})

// remix-toast's default cookie is unsigned; this one is signed with the same secrets.
const toastSessionStorage = createCookieSessionStorage({ cookie: { name: '__toast', ...cookieDefaults } })

export const {
  getToast,
  dataWithSuccess,
  dataWithError,
  redirectWithSuccess,
  redirectWithError,
  redirectWithToast,
} = createToastUtilsWithCustomSession(toastSessionStorage)
