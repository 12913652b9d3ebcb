import { RefusedError, refusalResponse } from '~/server/platform/refused-error.server'

const UNREADABLE = 'The form could not be read: it was cut short or garbled on the way. Send it again.'

/**
 * The request's form. A body that is no form (a multipart one without its boundary, garbled, or cut short)
 * is the sender's mistake: a 400 saying so, as the API's JSON error or a page's text, never a 500.
 */
export async function readForm(request: Request, as: 'json' | 'text' = 'text'): Promise<FormData> {
  try {
    return await request.formData()
  } catch (error) {
    if (request.signal.aborted) throw error
    throw refusalResponse(new RefusedError(UNREADABLE, 400), as)
  }
}
