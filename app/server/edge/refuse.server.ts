import type { Request, Response } from 'express'

export type Refusal = { status: number; error: string }

// A body too large to read through is not read at all: its connection closes after the answer.
const DISCARD_MAX_BYTES = 4 * 1024 * 1024
const DISCARD_MAX_MS = 2000

/**
 * Closing while the client is still sending resets the connection, and the client may never read the
 * refusal: so the answer goes out at once and the body is read and dropped, within bounds (RFC 9112 9.6).
 */
export function refuse(req: Request, res: Response, { status, error }: Refusal) {
  if (Number(req.get('content-length') ?? 0) > DISCARD_MAX_BYTES) res.set('Connection', 'close')
  if (!res.headersSent) res.status(status).json({ error })
  discardBody(req)
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
