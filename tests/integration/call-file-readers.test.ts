import fs from 'node:fs'
import http from 'node:http'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { logLines, type LogLine } from '../setup/app-logs'
import { until } from '../setup/until'
import { inflatingPdf, multipart, secondDirectoryDocx, slowPdf } from '../../scripts/hostile/call-files'

// The places where uploaded calls are read (docs/decisions/031), against the BUILT app over HTTP: one file at a time
// per person, a line shared fairly, a place freed when its client goes, and the process's memory under a ceiling.

const MB = 1024 * 1024
const WORD_CALL = fs.readFileSync('tests/fixtures/funders/community-foundation.docx')
const SLOW = slowPdf()
const YOURS = /One of your files is still being read/

let app: AppServer
let accounts = 0

beforeAll(async () => {
  app = await startAppServer()
}, 60_000)

afterAll(async () => {
  await app.stop()
  fs.rmSync(app.dataDir, { recursive: true, force: true })
})

const newPerson = () => registerOverHttp(app.origin, `reader-${++accounts}@example.org`)

/** Sends a call file to be read; resolves with the status and the error, if any. */
async function upload(token: string, name: string, bytes: Buffer, signal?: AbortSignal, server = app) {
  const response = await fetch(`${server.origin}/api/funders/extract`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: multipart({}, { name, bytes }),
    signal,
  })
  const body = (await response.json()) as { error?: string }
  return { status: response.status, error: body.error ?? '' }
}

/** Sends the head of an upload whose body says it is `declared` bytes long, and never the rest. */
function partialUpload(token: string, declared: number) {
  return new Promise<{ status: number; error: string }>((resolve, reject) => {
    const request = http.request(`${app.origin}/api/funders/extract`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'multipart/form-data; boundary=unsent',
        'Content-Length': String(declared),
      },
    })
    request.on('response', (response) => {
      let body = ''
      response.on('data', (chunk) => (body += chunk))
      response.on('end', () => {
        resolve({ status: response.statusCode!, error: JSON.parse(body).error })
        request.destroy()
      })
    })
    request.on('error', reject)
    request.write(`--unsent\r\nContent-Disposition: form-data; name="file"; filename="call.pdf"\r\n\r\n%PDF-${'x'.repeat(1024)}`)
  })
}

/** The server process's peak resident size so far (VmHWM), from Linux's own account of it. */
function serverPeakMemory(): number {
  const status = fs.readFileSync(`/proc/${app.process.pid}/status`, 'utf8')
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024
}

/** The first `count` of `pending` to settle, in the order they do. */
function firstAnswers<T>(pending: Promise<T>[], count: number): Promise<T[]> {
  const answers: T[] = []
  return new Promise((resolve, reject) => {
    for (const one of pending)
      one.then((answer) => {
        answers.push(answer)
        if (answers.length === count) resolve(answers)
      }, reject)
  })
}

const logged = (event: string, kind: string) => (line: LogLine) => line.event === event && line.kind === kind

/** Resolves with the lines of the log from line `mark` on once `count` are `event` for a file of `kind`. */
const untilLogged = (mark: number, event: string, kind: string, count = 1, server = app) =>
  until(
    () => {
      const lines = logLines(server).slice(mark)
      return lines.filter(logged(event, kind)).length >= count && lines
    },
    { what: `${count} ${event} for ${kind}`, details: server.logs },
  )

/**
 * Whether a Word file's reading began before the slow PDF's ended, by the log from `mark` on. Reading runs at the
 * lowest priority, so on a busy machine the Word file may finish after the PDF's time limit: when its reading began is
 * what shows it did not wait for it.
 */
async function wordBeganBeforePdfEnded(mark: number) {
  const lines = await untilLogged(mark, 'funder.file_refused', 'pdf')
  const began = lines.find(logged('funder.file_reading', 'docx'))
  const ended = lines.find(logged('funder.file_refused', 'pdf'))!
  return Boolean(began && Date.parse(began.time) < Date.parse(ended.time))
}

it("reads another person's Word call while one account sends twelve slow PDFs, refusing that account's eleven others", async () => {
  const [flooder, other] = [await newPerson(), await newPerson()]
  const mark = logLines(app).length
  const flood = Array.from({ length: 12 }, () => upload(flooder, 'call.pdf', SLOW))
  // Whichever arrived first is read; the eleven others are refused at once, saying why.
  const refused = await firstAnswers(flood, 11)
  for (const answer of refused) expect(answer).toEqual({ status: 429, error: expect.stringMatching(YOURS) })

  // Another, whose body says 4 MB and sends 1 KB: refused at once, not after waiting for the rest.
  expect(await partialUpload(flooder, 4 * MB)).toEqual({ status: 429, error: expect.stringMatching(YOURS) })
  expect(await upload(other, 'community-foundation.docx', WORD_CALL)).toEqual({ status: 200, error: '' })
  // The slow PDF meets its time limit or its memory limit first, as the machine's speed has it: either way
  // the read is ended and refused, saying what to do instead.
  expect((await Promise.all(flood)).filter((answer) => answer.status !== 429)).toEqual([
    { status: 422, error: expect.stringMatching(/(took too long|needs too much memory) to read\. Paste the call's text instead\.$/) },
  ])
  expect(await wordBeganBeforePdfEnded(mark)).toBe(true)
}, 60_000)

it("gives a place up when its client goes: the next person's file is read before the other slow one ends", async () => {
  const [leaving, staying, next] = [await newPerson(), await newPerson(), await newPerson()]
  const client = new AbortController()
  const mark = logLines(app).length
  const left = upload(leaving, 'call.pdf', SLOW, client.signal).catch((error: Error) => error.name)
  const stayed = upload(staying, 'call.pdf', SLOW)
  await untilLogged(mark, 'funder.file_reading', 'pdf', 2)
  // Both places are taken: the next file waits in line until one is given up.
  const waiting = upload(next, 'community-foundation.docx', WORD_CALL)
  await untilLogged(mark, 'funder.file_queued', 'docx')
  client.abort()
  expect(await left).toBe('AbortError')
  expect(await waiting).toEqual({ status: 200, error: '' })
  expect((await stayed).status).toBe(422)
  expect(await wordBeganBeforePdfEnded(mark)).toBe(true)
}, 60_000)

it('ends a read when its client goes, with the garbage collector running all the while', async () => {
  // The abort reaches the action through Requests that undici links to each other weakly: were one collected
  // early, the read would run on to its time limit. A full collection every 20 ms gives every chance of that.
  const collect = `import { isMainThread } from 'node:worker_threads'
    if (isMainThread) setInterval(() => globalThis.gc(), 20).unref()`
  const collecting = await startAppServer({ nodeArgs: ['--expose-gc', '--import', `data:text/javascript,${encodeURIComponent(collect)}`] })
  try {
    const token = await registerOverHttp(collecting.origin, 'collected@example.org')
    const mark = logLines(collecting).length
    const client = new AbortController()
    const left = upload(token, 'call.pdf', SLOW, client.signal, collecting).catch((error: Error) => error.name)
    await untilLogged(mark, 'funder.file_reading', 'pdf', 1, collecting)
    await new Promise((resolve) => setTimeout(resolve, 300)) // some fifteen collections while it is read
    client.abort()
    expect(await left).toBe('AbortError')
    // The read ends at once, not at its time limit: the person's next file is taken, and nothing was refused.
    await until(async () => (await upload(token, 'call.txt', Buffer.from('A call.'), undefined, collecting)).status === 200, {
      what: 'the next file taken',
      timeoutMs: 5_000,
      intervalMs: 300, // each try counts against the 20 readings a minute
    })
    expect(logLines(collecting).filter((line) => line.event === 'funder.file_refused')).toEqual([])
  } finally {
    await collecting.stop()
    fs.rmSync(collecting.dataDir, { recursive: true, force: true })
  }
}, 60_000)

it('reads a call of the longest text allowed, as a Word file and as a PDF, inside what one read may hold', async () => {
  const token = await newPerson()
  for (const name of ['longest-call.docx', 'longest-call.pdf']) {
    const response = await fetch(`${app.origin}/api/funders/extract`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: multipart({}, { name, bytes: fs.readFileSync(`tests/fixtures/funders/${name}`) }),
    })
    // Not 422 "needs too much memory": read whole, it is understood.
    expect(response.status).toBe(200)
    expect(((await response.json()) as { data: { name: string } }).data.name).toBe('Part 1: what we ask of applicants in theme 1')
  }
})

it('refuses a Word file with a second directory before anything is unpacked', async () => {
  const answer = await upload(await newPerson(), 'call.docx', secondDirectoryDocx())
  expect(answer).toEqual({ status: 422, error: expect.stringMatching(/could not be read: it may be damaged/) })
})

it('keeps the server under its 1 GB ceiling while twelve people each send a PDF that inflates to 500 MB', async () => {
  const people = await Promise.all(Array.from({ length: 12 }, newPerson))
  const bomb = inflatingPdf(500)
  const answers = await Promise.all(people.map((token) => upload(token, 'call.pdf', bomb)))
  for (const answer of answers) {
    expect([422, 503]).toContain(answer.status)
    expect(answer.error).toMatch(answer.status === 422 ? /too much memory|took too long/ : /Try again in a moment/)
  }
  const peak = serverPeakMemory()
  console.log(`server's peak resident size: ${Math.round(peak / MB)} MB; answers: ${answers.map((answer) => answer.status).join(' ')}`)
  // Each read is ended past 128 MB of its own, and the process's size is the second bound (call-file.server.ts).
  expect(peak).toBeLessThan(1024 * MB)
  // Its memory given back: a small call is read again.
  expect(await upload(await newPerson(), 'community-foundation.docx', WORD_CALL)).toEqual({ status: 200, error: '' })
}, 120_000)
