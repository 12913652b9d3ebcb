import { data } from 'react-router'
import type { ToastMessage } from '~/shared/toast'
import { RefusedError } from '~/server/platform/refused-error.server'
import { dataWithError, redirectWithError } from '~/server/http/toast.server'

// A page's answer to a refusal (a rate limit, a quota, work the pool refused, a limit of the account…):
// one place, so a route catches an error and hands it here instead of testing its class. The token
// API's is handleApi's (http/api.server.ts), which answers a refusal with its JSON problem.

/** The refusal an error is; anything else goes on. */
export function refusalOf(error: unknown): RefusedError {
  if (error instanceof RefusedError) return error
  throw error
}

const retryAfter = (refusal: RefusedError): HeadersInit | undefined =>
  refusal.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(refusal.retryAfterSeconds) }

/**
 * The page stays, with `reply(refusal)` as its data and an error toast, under the refusal's status and
 * Retry-After. The toast says the refusal's message unless `toast` says otherwise (null: none, the
 * form alone says it).
 */
export function refusalReply<T extends object>(
  error: unknown,
  reply: (refusal: RefusedError) => T,
  toast: (refusal: RefusedError) => string | null = (refusal) => refusal.message,
) {
  const refusal = refusalOf(error)
  const init = { status: refusal.status, headers: retryAfter(refusal) }
  const message = toast(refusal)
  return message === null ? data<T & { toast?: ToastMessage }>(reply(refusal), init) : dataWithError(reply(refusal), message, init)
}

/**
 * A page action's step that may be refused (a rate limit before the form is read, say): its value, or,
 * refused, the page's answer carrying `reply(message)` as its data (refusalReply).
 */
export async function unlessRefused<T, D extends object>(step: () => Promise<T>, reply: (message: string) => D) {
  try {
    return { value: await step(), refused: null }
  } catch (error) {
    return { value: null, refused: refusalReply(error, ({ message }) => reply(message)) }
  }
}

/** A refusal as a form's errors: on its field, where it names one, else the form's. */
export function formErrorsOf({ field, message }: RefusedError) {
  return field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }
}

/** Back to `to`, the refusal's message in an error toast. */
export async function refusalRedirect(error: unknown, to: string): Promise<Response> {
  return redirectWithError(to, refusalOf(error).message)
}
