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
