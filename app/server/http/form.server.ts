import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import { RefusedError, refusalResponse } from '~/server/platform/refused-error.server'
import { FORM_ENTRIES_MAX } from '~/server/edge/body-limit.server'
import { CALL_FILE_MAX_BYTES } from '~/shared/funder-schema'

const UNREADABLE = 'The form could not be read: it was cut short or garbled on the way. Send it again.'

/**
 * A field is kept to its first 512 KB: more than any field's own limit takes even at four bytes a character
 * (a call's 100,000), so a longer one is still refused by its schema, with the form's own message.
 */
const FIELD_MAX_BYTES = 512 * 1024
/** A file is kept to one byte past the largest we read, so its size still says it is too large. */
const FILE_KEPT_BYTES = CALL_FILE_MAX_BYTES + 1

/**
 * The request's form. A body that is no form (a multipart one without its boundary, garbled, or cut short)
 * is the sender's mistake: a 400 saying so, as the API's JSON error or a page's text, never a 500.
 */
export async function readForm(request: Request, as: 'json' | 'text' = 'text'): Promise<FormData> {
  try {
    return isMultipart(request) ? await readMultipart(request) : await request.formData()
  } catch (error) {
    if (request.signal.aborted) throw error
    throw refusalResponse(new RefusedError(UNREADABLE, 400), as)
  }
}

/** Whether the body is a multipart form: the routes that also take JSON choose their reader by it. */
export const isMultipart = (request: Request) => /^multipart\/form-data/i.test(request.headers.get('Content-Type') ?? '')

/**
 * A multipart body parsed piece by piece as it arrives (busboy), where `request.formData()` would parse
 * megabytes in one go on the event loop (docs/decisions/025).
 */
function readMultipart(request: Request): Promise<FormData> {
  const form = new FormData()
  const parser = busboy({
    headers: { 'content-type': request.headers.get('Content-Type') ?? '' },
    defParamCharset: 'utf8',
    // Too many parts are the body watch's to refuse, with its 413, as they arrive (body-limit.server.ts).
    // This bound only keeps what is built finite: busboy stops at it, one part past the cap the watch allows.
    limits: { fieldSize: FIELD_MAX_BYTES, fileSize: FILE_KEPT_BYTES, parts: FORM_ENTRIES_MAX + 1 },
  })
  const files: Promise<void>[] = []
  parser.on('field', (name, value) => form.append(name, value))
  parser.on('file', (name, stream, { filename, mimeType }) => {
    files.push(
      new Promise((resolve, reject) => {
        // Each piece is copied into a Blob as it arrives: a File made of Blobs takes them without copying, where
        // one made of buffers would copy megabytes in one go (on a virtual machine, page faults of 20 ms or more).
        const pieces: Blob[] = []
        stream.on('data', (chunk: Buffer<ArrayBuffer>) => pieces.push(new Blob([chunk])))
        stream.on('error', reject)
        stream.on('end', () => {
          form.append(name, new File(pieces, filename ?? '', { type: mimeType }))
          resolve()
        })
      }),
    )
  })
  return new Promise((resolve, reject) => {
    parser.on('error', reject)
    parser.on('close', () => Promise.all(files).then(() => resolve(form), reject))
    if (!request.body) return reject(new Error('No body'))
    Readable.fromWeb(request.body as NodeReadableStream)
      .on('error', reject)
      .pipe(parser)
  })
}
