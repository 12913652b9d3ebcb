import { setImmediate } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import { CALL_FILE_MAX_BYTES, CALL_FILE_TYPES, FUNDER_LIMITS } from '~/shared/funder-schema'
import type { CallFileAnswer } from '~/server/funders/call-file-worker'
import { holdFor, takeReaderPlace, type Hold, type PlaceRefusal } from '~/server/funders/call-file-readers.server'
import { readZipDirectory, type ZipEntry } from '~/server/funders/zip-structure.server'
import { log } from '~/server/platform/logger.server'
import { workerFile } from '~/server/platform/worker-source.server'
import { cleanName } from '~/shared/text'
import { RefusedError } from '~/server/platform/refused-error.server'

// Word files and PDFs are read in a worker bounded in time and memory (docs/decisions/031); every refusal says what to do instead.

const MB = 1024 * 1024

/** A Word file's parts, unpacked: a long call's is a few megabytes. */
const UNPACKED_MAX_BYTES = 64 * MB
const READ_TIME_MS = 10_000
/** The worker's JavaScript heap (unpacked buffers live outside it: READ_MEMORY_MAX_BYTES bounds those too). */
const WORKER_HEAP_MB = 128
/** What one read may hold, heap and outside buffers, as its thread reports; the process's size is a second bound (docs/decisions/031). */
const READ_MEMORY_MAX_BYTES = 80 * MB
const MEMORY_TO_START_BYTES = 900 * MB
const MEMORY_MAX_BYTES = 1024 * MB
const MEMORY_CHECK_MS = 10

export class CallFileError extends RefusedError<400 | 413 | 415 | 422 | 429 | 499 | 503> {
  constructor(status: 400 | 413 | 415 | 422 | 429 | 499 | 503, message: string) {
    super(message, status)
  }
}

const PASTE = "Paste the call's text instead."

/** Who sends the file (one file at a time each: `hold`, when already taken), and the request's signal: a read ends when its client goes. */
export type Reader = { person: string; signal?: AbortSignal; hold?: Hold }

export async function readCallFile(file: File, reader: Reader): Promise<string> {
  if (file.size === 0) throw new CallFileError(400, 'The file is empty. Choose the file of the call again, or paste its text.')
  if (file.size > CALL_FILE_MAX_BYTES)
    throw new CallFileError(
      413,
      `The file is larger than ${CALL_FILE_MAX_BYTES / MB} MB. Paste the part of the call about what the funder looks for.`,
    )
  const type = CALL_FILE_TYPES.find((extension) => file.name.toLowerCase().endsWith(extension))
  if (!type) throw new CallFileError(415, 'Choose a .docx, .pdf, .txt or .md file, or paste the text of the call.')
  const bytes = await bytesOf(file)
  refuseMislabelled(type, bytes)
  const text =
    type === '.txt' || type === '.md'
      ? decodeText(type, bytes)
      : await readInWorker(type === '.docx' ? docxJob(bytes) : { kind: 'pdf', bytes }, reader)
  if (!/[\p{L}\p{N}]/u.test(text)) throw new CallFileError(422, `No text was found in the file (a scanned PDF has none). ${PASTE}`)
  return text
}

/** Copied a piece at a time: `arrayBuffer()` joins megabytes of pieces in one go (decision 025). */
async function bytesOf(file: File): Promise<Uint8Array> {
  const bytes = new Uint8Array(file.size)
  const pieces = file.stream().getReader()
  for (let at = 0, piece = await pieces.read(); !piece.done; piece = await pieces.read()) {
    bytes.set(piece.value, at)
    at += piece.value.length
    await setImmediate()
  }
  return bytes
}

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, index) => bytes[index] === byte)
const PDF_SIGNATURE = [...'%PDF-'].map((character) => character.charCodeAt(0))
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04]
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0]

/** A file whose bytes are not what its name says: refused before any parser sees it. */
function refuseMislabelled(type: (typeof CALL_FILE_TYPES)[number], bytes: Uint8Array) {
  if (type === '.pdf' && !startsWith(bytes, PDF_SIGNATURE))
    throw new CallFileError(415, `This file is named .pdf but is not a PDF. ${PASTE}`)
  if (type === '.docx' && startsWith(bytes, OLE_SIGNATURE))
    throw new CallFileError(415, 'This is an older Word document (.doc): save it as .docx in Word, or paste its text.')
  if (type === '.docx' && !startsWith(bytes, ZIP_SIGNATURE))
    throw new CallFileError(415, `This file is named .docx but is not a Word document. ${PASTE}`)
}

function decodeText(type: string, bytes: Uint8Array): string {
  const utf16 = startsWith(bytes, [0xff, 0xfe]) ? 'utf-16le' : startsWith(bytes, [0xfe, 0xff]) ? 'utf-16be' : null
  if (!utf16 && bytes.subarray(0, 8192).includes(0)) throw new CallFileError(415, `This file is named ${type} but is not text. ${PASTE}`)
  let text: string
  try {
    text = new TextDecoder(utf16 ?? 'utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new CallFileError(422, `The file is not UTF-8 text. Save it as UTF-8, or paste its text.`)
  }
  if (text.length > FUNDER_LIMITS.callText) throw tooLong()
  return text
}

const tooLong = () =>
  new CallFileError(
    422,
    `The call is longer than ${FUNDER_LIMITS.callText.toLocaleString('en-US')} characters. Paste the part that matters.`,
  )

type Job = { kind: 'docx'; bytes: Uint8Array; entries: ZipEntry[] } | { kind: 'pdf'; bytes: Uint8Array }

/** A Word file's zip, refused before anything is unpacked when it is not plain or says it unpacks too large. */
function docxJob(bytes: Uint8Array): Job {
  const entries = readZipDirectory(bytes)
  if (!entries) throw REFUSALS.unreadable()
  if (entries.reduce((total, entry) => total + entry.size, 0) > UNPACKED_MAX_BYTES) throw REFUSALS['unpacks-too-large']()
  return { kind: 'docx', bytes, entries }
}

const PLACE_REFUSALS: Record<PlaceRefusal | 'full', () => CallFileError> = {
  yours: () =>
    new CallFileError(429, 'One of your files is still being read. Wait for it to finish (a few seconds), then send the next one.'),
  busy: () => new CallFileError(503, 'Many files are being read right now. Try again in a moment.'),
  full: () => new CallFileError(503, 'The server is short of memory for reading files right now. Try again in a moment.'),
  gone: () => new CallFileError(499, 'The upload was cancelled before the file was read.'),
}

async function readInWorker(job: Job, { person, signal, hold }: Reader): Promise<string> {
  const own = hold ? null : holdFor(person)
  if (!hold && !own) throw PLACE_REFUSALS.yours()
  try {
    return await readInPlace(job, signal)
  } finally {
    own?.release()
  }
}

async function readInPlace(job: Job, signal?: AbortSignal): Promise<string> {
  const asked = performance.now()
  const place = await takeReaderPlace(signal, () => log('info', 'funder.file_queued', { kind: job.kind }))
  if ('refused' in place) throw PLACE_REFUSALS[place.refused]()
  log('info', 'funder.file_reading', { kind: job.kind, waitedMs: Math.round(performance.now() - asked) })
  const memory = process.memoryUsage.rss()
  if (memory > MEMORY_TO_START_BYTES) {
    place.release()
    log('warn', 'funder.file_refused', { kind: job.kind, reason: 'memory-at-start', residentMb: Math.round(memory / MB) })
    throw PLACE_REFUSALS.full()
  }
  let finished: Awaited<ReturnType<typeof runWorker>>
  try {
    finished = await runWorker(job, signal)
  } catch (error) {
    place.release()
    throw error
  }
  const { answer, ended } = finished
  // A worker's memory is given back as its thread ends, a moment after its answer: the next read waits for that.
  place.release(ended)
  if ('text' in answer) return answer.text
  if (answer.refused === 'gone') throw PLACE_REFUSALS.gone()
  log('warn', 'funder.file_refused', { kind: job.kind, reason: answer.refused })
  throw REFUSALS[answer.refused]()
}

type Refusal = Extract<CallFileAnswer, { refused: string }>['refused'] | 'unpacks-too-large' | 'time' | 'memory'

const REFUSALS: Record<Refusal, () => CallFileError> = {
  'unpacks-too-large': () => new CallFileError(413, `The Word file unpacks to more than ${UNPACKED_MAX_BYTES / MB} MB. ${PASTE}`),
  unreadable: () => new CallFileError(422, `The file could not be read: it may be damaged. ${PASTE}`),
  encrypted: () => new CallFileError(422, `The file is protected by a password. Remove the password, or paste the call's text.`),
  'too-long': tooLong,
  time: () => new CallFileError(422, `The file took too long to read. ${PASTE}`),
  memory: () => new CallFileError(422, `The file needs too much memory to read. ${PASTE}`),
}

let workerUrl: URL | undefined
const workerSource = () => (workerUrl ??= workerFile(import.meta.url, './call-file-worker.ts', 'call-file-worker'))

type WorkerAnswer = CallFileAnswer | { refused: 'time' | 'memory' | 'gone' }

function runWorker(job: Job, signal?: AbortSignal): Promise<{ answer: WorkerAnswer; ended: Promise<unknown> }> {
  return new Promise((resolve) => {
    const worker = new Worker(workerSource(), {
      workerData: { ...job, maxCharacters: FUNDER_LIMITS.callText },
      transferList: [job.bytes.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    })
    let settled = false
    const finish = (answer: WorkerAnswer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearInterval(memory)
      signal?.removeEventListener('abort', gone)
      resolve({ answer, ended: worker.terminate() })
    }
    const gone = () => finish({ refused: 'gone' })
    signal?.addEventListener('abort', gone, { once: true })
    const timer = setTimeout(() => finish({ refused: 'time' }), READ_TIME_MS)
    const memory = setInterval(() => {
      if (process.memoryUsage.rss() > MEMORY_MAX_BYTES) finish({ refused: 'memory' })
      worker.getHeapStatistics().then(
        (heap) =>
          heap.total_physical_size + heap.external_memory + heap.malloced_memory > READ_MEMORY_MAX_BYTES && finish({ refused: 'memory' }),
        () => {}, // the worker has ended
      )
    }, MEMORY_CHECK_MS)
    // pdf.js and mammoth may write warnings: read and dropped, so nothing piles up.
    worker.stdout.resume()
    worker.stderr.resume()
    worker.on('message', (answer: CallFileAnswer) => finish(answer))
    worker.on('error', (error: Error & { code?: string }) =>
      finish({ refused: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'unreadable' }),
    )
    worker.on('exit', () => finish({ refused: 'unreadable' }))
  })
}

/** One upload a person, held from its body's first byte: a second is refused unparsed (decision 031). */
export async function oneUploadEach<T>(request: Request, person: string, read: (reader: Reader) => Promise<T>): Promise<T> {
  const hold = holdFor(person)
  if (!hold) {
    // Dropped as it comes: a client still sending would otherwise see its connection reset.
    void request.body?.pipeTo(new WritableStream()).catch(() => {})
    throw PLACE_REFUSALS.yours()
  }
  try {
    return await read({ person, signal: request.signal, hold })
  } finally {
    hold.release()
  }
}

/** Null when the form chose no file (a browser sends an empty, nameless one). */
export async function callFromUpload(form: FormData, reader: Reader): Promise<{ text: string; source: string } | null> {
  const file = form.get('file')
  if (!(file instanceof File) || (file.size === 0 && !file.name)) return null
  const text = await readCallFile(file, reader)
  return { text, source: cleanName(file.name).slice(0, FUNDER_LIMITS.name) || 'upload' }
}
