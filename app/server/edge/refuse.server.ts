import type { Request, Response } from 'express'

export type Refusal = { status: number; error: string }

// Well past the 6 MB upload cap, and the time a slow upload of that size needs: a browser cut off
// sooner shows "connection reset" instead of the refusal. Reading and dropping costs next to nothing.
const DISCARD_MAX_BYTES = 16 * 1024 * 1024
const DISCARD_MAX_MS = 10_000

/**
 * Closing while the client is still sending resets the connection, and the client may never read the
 * refusal: so the answer goes out at once and the body is read and dropped, within bounds (RFC 9112 9.6).
 */
export function refuse(req: Request, res: Response, { status, error }: Refusal) {
  if (Number(req.get('content-length') ?? 0) > DISCARD_MAX_BYTES) res.set('Connection', 'close')
  if (!res.headersSent) {
    if (wantsPage(req)) res.status(status).type('html').send(refusalPage(error))
    else res.status(status).json({ error })
  }
  discardBody(req)
}

// A person sending a page's form without JavaScript reads the answer: a page, not JSON.
function wantsPage(req: Request) {
  return !/^\/(?:api|auth|resources)\/|\.data$/.test(req.path) && req.accepts(['json', 'html']) === 'html'
}

function refusalPage(error: string) {
  const text = error.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`)
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not sent</title><main style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem"><h1>This was not sent</h1><p>${text}.</p><p>Go back with your browser's Back button: what you typed is still in the form.</p></main></html>`
}

function discardBody(req: Request) {
  let discarded = 0
  const close = () => req.destroy()
  const timer = setTimeout(close, DISCARD_MAX_MS)
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > DISCARD_MAX_BYTES) close()
  })
  req.on('close', () => clearTimeout(timer))
  req.resume()
}
