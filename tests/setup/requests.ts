import { type ActionFunctionArgs, type LoaderFunctionArgs, RouterContextProvider } from 'react-router'

const ORIGIN = 'https://narratives.example.org'

type Handler = (args: ActionFunctionArgs & LoaderFunctionArgs) => unknown

export function jsonRequest(path: string, body: unknown, { method = 'POST', token }: { method?: string; token?: string } = {}) {
  return new Request(ORIGIN + path, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

export function getRequest(path: string, { token, cookie }: { token?: string; cookie?: string } = {}) {
  const headers = new Headers()
  if (token) headers.set('Authorization', `Bearer ${token}`)
  if (cookie) headers.set('Cookie', cookie)
  return new Request(ORIGIN + path, { headers })
}

export function formRequest(path: string, fields: Record<string, string>, { cookie }: { cookie?: string } = {}) {
  return new Request(ORIGIN + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  })
}

/** The arguments React Router gives a loader or action for this request. */
export function routeArgs(request: Request, params: Record<string, string> = {}): ActionFunctionArgs & LoaderFunctionArgs {
  return { request, params, context: new RouterContextProvider(), url: new URL(request.url), pattern: '' }
}

export type Result = { status: number; headers: Headers; body: any }

/**
 * Calls a loader or action as React Router would and normalises what it returns or throws (a Response,
 * single fetch's data() wrapper, or plain data) to status, headers and parsed body.
 */
export async function call(handler: Handler, request: Request, params: Record<string, string> = {}): Promise<Result> {
  let outcome: unknown
  try {
    outcome = await handler(routeArgs(request, params))
  } catch (thrown) {
    outcome = thrown
  }
  if (outcome instanceof Response) {
    const text = await outcome.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {}
    return { status: outcome.status, headers: outcome.headers, body }
  }
  if (isDataWithInit(outcome)) {
    return { status: outcome.init?.status ?? 200, headers: new Headers(outcome.init?.headers), body: outcome.data }
  }
  if (outcome instanceof Error) throw outcome
  return { status: 200, headers: new Headers(), body: outcome }
}

function isDataWithInit(value: unknown): value is { data: unknown; init?: ResponseInit } {
  return typeof value === 'object' && value !== null && (value as { type?: string }).type === 'DataWithResponseInit'
}

/** The cookies a response sets, as a Cookie request header. */
export function cookiesFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}
