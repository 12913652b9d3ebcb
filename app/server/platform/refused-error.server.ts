/**
 * A refusal the person can act on: `message` is fit to show them, `status` is the HTTP answer's. Every
 * refusal of the app subclasses it, so a route answers any of them alike (http/refusal-reply.server.ts,
 * http/api.server.ts's handleApi) without testing which it is.
 */
export class RefusedError<Status extends number = number> extends Error {
  constructor(
    message: string,
    readonly status: Status,
    /** When the person may try again, if waiting is what to do (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
    /** The form's field the refusal is about, if one is (a page shows it there). */
    readonly field?: string,
  ) {
    super(message)
  }
}

/** A refusal as an answer: the API's JSON error, or a page's plain text (a download's link), with its Retry-After. */
export function refusalResponse(error: RefusedError, as: 'json' | 'text'): Response {
  const response =
    as === 'json'
      ? Response.json({ error: error.message }, { status: error.status })
      : new Response(error.message, { status: error.status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  if (error.retryAfterSeconds !== undefined) response.headers.set('Retry-After', String(error.retryAfterSeconds))
  return response
}
