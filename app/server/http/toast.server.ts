import { createCookieSessionStorage, data } from 'react-router'
import { createToastUtilsWithCustomSession } from 'remix-toast'
import { cookieDefaults } from '~/server/http/cookies.server'
import type { ToastMessage } from '~/shared/toast'

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
