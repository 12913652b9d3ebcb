import { createCookieSessionStorage, data } from 'react-router'
import { createToastUtilsWithCustomSession } from 'remix-toast'
import { getEnv } from '~/server/platform/env.server'
import type { ToastMessage } from '~/components/toaster'

const env = getEnv()

// Secure only over HTTPS, so a plain-HTTP self-hosted install on a LAN still works.
const cookieDefaults = {
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  secrets: env.sessionSecrets,
  secure: env.appOrigin.startsWith('https:'),
}

/** Only a signed, random session id: the session itself is a database row (decision 004). */
export const authSessionStorage = createCookieSessionStorage<{ sessionId: string }>({
  cookie: { name: '__session', ...cookieDefaults },
})

// remix-toast's default cookie is unsigned; this one is signed with the same secrets.
const toastSessionStorage = createCookieSessionStorage({ cookie: { name: '__toast', ...cookieDefaults } })

export const { getToast, redirectWithSuccess, redirectWithError } = createToastUtilsWithCustomSession(toastSessionStorage)

/**
 * An answer that stays on its page carries its toast in its data (<ActionToast>): in the flash cookie
 * it would reach the next page instead, as React Router reloads no loaders after a 4xx, and without
 * JavaScript the page is rendered before the browser holds the cookie.
 */
function dataWithToast<T extends object>(payload: T, toast: ToastMessage, init?: ResponseInit) {
  return data<T & { toast: ToastMessage }>({ ...payload, toast }, init)
}

export const dataWithError = <T extends object>(payload: T, message: string, init?: ResponseInit) =>
  dataWithToast(payload, { type: 'error', message }, init)

export const dataWithSuccess = <T extends object>(payload: T, message: string, init?: ResponseInit) =>
  dataWithToast(payload, { type: 'success', message }, init)
