import type { Request, RequestHandler, Response } from 'express'
import { refuse } from '~/server/edge/refuse.server'

const KB = 1024

/**
 * Refused with 413 before anything parses them (docs/decisions/025):
 * - urlencoded: every URL-encoded form. Our largest written in English at its fields' limits is about
 *   33 KB (the funder form); the forms whose fields hold long text are multipart, so no script needs more.
 * - form: a multipart form that takes no file. The dashboard's 28,000 characters are 84 KB even at 3
 *   bytes a character (Chinese, Hindi), the funder form's 30,000 characters 100 KB with its part headers.
 * - json: a narrative with its text and inputs, escaped; callJson: a call's 100,000 characters, escaped.
 * - upload: a call's file (CALL_FILE_MAX_BYTES) and its pasted text, only where a file is taken (decision 031).
 */
export const BODY_LIMITS = {
  urlencoded: 64 * KB,
  form: 192 * KB,
  json: 512 * KB,
  upload: 6 * 1024 * KB,
  callJson: 1024 * KB,
} as const
type BodyKind = keyof typeof BODY_LIMITS

/** Fields or parts a form may have, counted before the parse: the funder form holds about 135 at its lists' limits. */
export const FORM_ENTRIES_MAX = 256

/** The routes that take a file: the page that adds a brief, and the funder API's create and extract. */
const UPLOAD_PATHS = /^\/(?:funders(?:\.data)?|api\/funders(?:\/extract)?)$/
/** Where a funder's call is sent as JSON: the funder API. */
const CALL_PATHS = /^\/(?:api\/)?funders(?:\/|\.data$|$)/

type Form = { kind: 'urlencoded' } | { kind: 'multipart'; boundary: string | null }

function formOf(req: Request): Form | null {
  const type = (req.get('content-type') ?? '').toLowerCase()
  if (type.startsWith('application/x-www-form-urlencoded')) return { kind: 'urlencoded' }
  if (!type.startsWith('multipart/form-data')) return null
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.get('content-type') ?? '')
  return { kind: 'multipart', boundary: boundary ? (boundary[1] ?? boundary[2]) : null }
}

function bodyKind(req: Request, form: Form | null): BodyKind {
  if (form?.kind === 'urlencoded') return 'urlencoded'
  if (form?.kind === 'multipart') return UPLOAD_PATHS.test(req.path) ? 'upload' : 'form'
  return CALL_PATHS.test(req.path) ? 'callJson' : 'json'
}

function tooLarge(limit: number) {
  return { status: 413, error: `Request body too large (limit ${limit >= 1024 * KB ? `${limit / 1024 / KB} MB` : `${limit / KB} KB`})` }
}

const TOO_MANY_ENTRIES = { status: 413, error: `Form has too many fields (at most ${FORM_ENTRIES_MAX})` }

export function limitBodySize(): RequestHandler {
  return (req, res, next) => {
    const form = formOf(req)
    const limit = BODY_LIMITS[bodyKind(req, form)]
    if (Number(req.get('content-length') ?? 0) > limit) return refuse(req, res, tooLarge(limit))
    const counters = [
      ...(req.get('transfer-encoding') ? [countBytes(limit)] : []),
      ...(form?.kind === 'urlencoded' ? [countOccurrences('&', FORM_ENTRIES_MAX - 1)] : []),
      ...(form?.kind === 'multipart' && form.boundary ? [countOccurrences(`--${form.boundary}`, FORM_ENTRIES_MAX + 1)] : []),
    ]
    if (counters.length) watchBody(req, res, counters)
    next()
  }
}

/** A check of each piece of a body as it arrives: the refusal it calls for, or null. */
type Counter = (chunk: Buffer) => ReturnType<typeof tooLarge> | null

function countBytes(limit: number): Counter {
  let received = 0
  return (chunk) => ((received += chunk.length) > limit ? tooLarge(limit) : null)
}

/**
 * Counts `needle` across the pieces (a match may straddle two), in linear time; refuses past `max`. Only the
 * few bytes around a junction are copied: a fresh copy of each piece would cost its page faults on the event loop.
 */
export function countOccurrences(needle: string, max: number): Counter {
  const pattern = Buffer.from(needle)
  const keep = pattern.length - 1
  let tail = Buffer.alloc(0)
  let found = 0
  return (chunk) => {
    let end = 0
    if (tail.length) {
      // The tail is shorter than a match: a match found here straddles the two pieces.
      const at = Buffer.concat([tail, chunk.subarray(0, keep)]).indexOf(pattern)
      if (at !== -1) {
        found++
        end = at + pattern.length - tail.length
      }
    }
    for (let at = chunk.indexOf(pattern, end); at !== -1; at = chunk.indexOf(pattern, end)) {
      found++
      end = at + pattern.length
    }
    // What could begin a match the next piece completes, and is no part of one already counted.
    tail =
      end > 0 || chunk.length >= keep
        ? Buffer.from(chunk.subarray(Math.max(end, chunk.length - keep)))
        : Buffer.concat([tail, chunk]).subarray(-keep)
    return found > max ? TOO_MANY_ENTRIES : null
  }
}

function watchBody(req: Request, res: Response, counters: Counter[]) {
  const watch = (chunk: Buffer) => {
    const refusal = counters.map((counter) => counter(chunk)).find(Boolean)
    if (!refusal || res.headersSent) return
    req.off('data', watch)
    refuse(req, res, refusal)
    // Fail React Router's read too, so no action runs on a refused body; refuse() drains the rest.
    if (req.listenerCount('error')) req.emit('error', new Error(refusal.error))
  }
  req.on('data', watch)
}
