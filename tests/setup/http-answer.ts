export type Send = { method?: string; json?: unknown; form?: Record<string, string>; from?: string; cookie?: string; token?: string }

/** A request to the app over real HTTP, as a browser form, a JSON client or a proxied address sends it. */
export async function sendTo(
  origin: string,
  path: string,
  { method = 'POST', json, form, from, cookie, token }: Send = {},
): Promise<HttpAnswer> {
  const headers = new Headers()
  if (from) headers.set('X-Forwarded-For', from)
  if (cookie) headers.set('Cookie', cookie)
  if (token) headers.set('Authorization', `Bearer ${token}`)
  let body: string | undefined
  if (json !== undefined) {
    headers.set('Content-Type', 'application/json')
    body = JSON.stringify(json)
  }
  if (form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded')
    body = new URLSearchParams(form).toString()
  }
  return readAnswer(await fetch(`${origin}${path}`, { method, headers, body, redirect: 'manual' }))
}

export type HttpAnswer = { status: number; headers: Headers; text: string; json: any }

/** A response read whole: its text, and its JSON when it is JSON. */
export async function readAnswer(response: Response): Promise<HttpAnswer> {
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: response.status, headers: response.headers, text, json }
}
