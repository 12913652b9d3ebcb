import type { Request, RequestHandler, Response } from 'express'
import { refuse } from '~/server/edge/refuse.server'

/** Bodies above this are refused with 413 before anything parses them. */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024

const tooLarge = { status: 413, error: `Request body too large (limit ${BODY_LIMIT_BYTES / 1024 / 1024} MB)` }

/**
 * Refuses a declared body over the limit before reading it, and counts a body sent without
 * Content-Length as it arrives, refusing it at the limit.
 */
export function limitBodySize(): RequestHandler {
  return (req, res, next) => {
    if (Number(req.get('content-length') ?? 0) > BODY_LIMIT_BYTES) return refuse(req, res, tooLarge)
    if (req.get('transfer-encoding')) limitStreamedBody(req, res)
    next()
  }
}

function limitStreamedBody(req: Request, res: Response) {
  let received = 0
  const count = (chunk: Buffer) => {
    received += chunk.length
    if (received <= BODY_LIMIT_BYTES || res.headersSent) return
    req.off('data', count)
    refuse(req, res, tooLarge)
    // React Router is reading this body too: end its read with an error, so no action runs on a
    // body that was refused, while refuse() drains the rest.
    if (req.listenerCount('error')) req.emit('error', new Error('Request body too large'))
  }
  req.on('data', count)
}
