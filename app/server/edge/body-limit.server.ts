import type { Request, RequestHandler, Response } from 'express'
import { refuse } from '~/server/edge/refuse.server'

const KB = 1024

/**
 * Refused with 413 before anything parses them.
 * - form: the dashboard's, about 27,000 characters at its fields' limits: 30 KB URL-encoded in English,
 *   up to 6 bytes a character in a non-Latin script.
 * - json: a narrative with its text and inputs, escaped; callJson: a call's 100,000 characters, escaped.
 * - upload: a call's file (CALL_FILE_MAX_BYTES) and its pasted text, 600 KB at most (docs/decisions/031).
 */
export const BODY_LIMITS = { form: 192 * KB, json: 512 * KB, upload: 6 * 1024 * KB, callJson: 1024 * KB } as const
type BodyKind = keyof typeof BODY_LIMITS

/** Where a funder's call is sent: the pages that add and correct briefs, and the funder API. */
const CALL_PATHS = /^\/(?:api\/)?funders(?:\/|\.data$|$)/

function bodyKind(req: Request): BodyKind {
  const type = (req.get('content-type') ?? '').toLowerCase()
  const calls = CALL_PATHS.test(req.path)
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) return calls ? 'upload' : 'form'
  return calls ? 'callJson' : 'json'
}

function tooLarge(limit: number) {
  return { status: 413, error: `Request body too large (limit ${limit >= 1024 * KB ? `${limit / 1024 / KB} MB` : `${limit / KB} KB`})` }
}

export function limitBodySize(): RequestHandler {
  return (req, res, next) => {
    const limit = BODY_LIMITS[bodyKind(req)]
    if (Number(req.get('content-length') ?? 0) > limit) return refuse(req, res, tooLarge(limit))
    if (req.get('transfer-encoding')) limitStreamedBody(req, res, limit)
    next()
  }
}

function limitStreamedBody(req: Request, res: Response, limit: number) {
  let received = 0
  const count = (chunk: Buffer) => {
    received += chunk.length
    if (received <= limit || res.headersSent) return
    req.off('data', count)
    refuse(req, res, tooLarge(limit))
    // React Router is reading this body too: end its read with an error, so no action runs on a
    // body that was refused, while refuse() drains the rest.
    if (req.listenerCount('error')) req.emit('error', new Error('Request body too large'))
  }
  req.on('data', count)
}
