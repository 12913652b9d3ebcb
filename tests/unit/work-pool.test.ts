import { BUSY_MESSAGE, runWork, stopWorkPool, WORK_THREADS, WorkRefusedError } from '~/server/platform/work-pool.server'

// The work pool, with its real worker (run as TypeScript) and real tasks: what a request meets when the work
// it asks for overruns, when the pool is full, and when its client goes.

afterAll(() => stopWorkPool())

const LONG_TEXT = 'a\n\n'.repeat(6_667)
const docx = (options: Parameters<typeof runWork>[2]) => runWork<Uint8Array>('narrative-docx', { narrative: LONG_TEXT }, options)
const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b
/** A task of a fraction of a millisecond: a queue fills because tasks are sent faster than threads take them. */
const compare = (options: Parameters<typeof runWork>[2]) =>
  runWork<unknown>('compare-words', { from: 'We fed 300 families.', to: 'We fed 320 families.' }, options)

it('builds a Word file of 6,667 paragraphs in a worker', async () => {
  expect(isZip(await docx({ tooMuch: 'Shorten it.' }))).toBe(true)
})

it('ends a task past its time limit with 422 and the words to act on, and goes on answering', async () => {
  const overrun = docx({ tooMuch: 'The Word file took too long to build. Shorten the text.', timeoutMs: 1 })
  await expect(overrun).rejects.toBeInstanceOf(WorkRefusedError)
  await expect(overrun).rejects.toMatchObject({ status: 422, message: 'The Word file took too long to build. Shorten the text.' })
  expect(isZip(await docx({ tooMuch: 'Shorten it.' }))).toBe(true)
})

const refusalsOf = (outcomes: PromiseSettledResult<unknown>[]) =>
  outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as WorkRefusedError] : []))

it('answers 503 at once, saying to try again, when more tasks wait than the queue holds', async () => {
  const outcomes = await Promise.allSettled(Array.from({ length: 90 }, () => compare({ tooMuch: 'Shorten it.' })))
  const refused = refusalsOf(outcomes)
  // The threads took one each, 64 waited, and the rest were refused.
  expect(refused.length).toBe(90 - 64 - WORK_THREADS)
  for (const refusal of refused) expect(refusal).toMatchObject({ status: 503, message: BUSY_MESSAGE })
})

it('takes a few tasks of one person at a time, and another person’s beside them', async () => {
  const flood = Array.from({ length: 12 }, () => compare({ tooMuch: 'Shorten it.', owner: 'flooder' }))
  const other = docx({ tooMuch: 'Shorten it.', owner: 'someone-else' })
  const outcomes = await Promise.allSettled(flood)
  expect(isZip(await other)).toBe(true)
  const refused = refusalsOf(outcomes)
  expect(refused.length).toBe(8)
  for (const refusal of refused) expect(refusal).toMatchObject({ status: 503, message: BUSY_MESSAGE })
  // Their share is free again once their tasks are done.
  await expect(compare({ tooMuch: 'Shorten it.', owner: 'flooder' })).resolves.toBeDefined()
})

it('ends the task when its client goes, with the client’s own reason, and goes on answering', async () => {
  const client = new AbortController()
  const pending = docx({ tooMuch: 'Shorten it.', signal: client.signal })
  const gone = new Error('the client went away')
  client.abort(gone)
  await expect(pending).rejects.toBe(gone)
  expect(isZip(await docx({ tooMuch: 'Shorten it.' }))).toBe(true)
})

it('counts a task’s time from its start, not from its wait for a thread', async () => {
  const busy = Array.from({ length: 8 * WORK_THREADS }, () => docx({ tooMuch: 'Shorten it.' }))
  // It waits for eight Word files of 6,667 paragraphs a thread (70-100 ms each), longer than its own 250 ms, which is
  // room enough for its own fraction of a millisecond on a machine busy with other tests.
  await expect(compare({ tooMuch: 'Too long.', timeoutMs: 250 })).resolves.toBeDefined()
  await Promise.all(busy)
})

it('takes a task whose client goes out of the queue before it runs', async () => {
  const busy = Array.from({ length: WORK_THREADS }, () => docx({ tooMuch: 'Shorten it.' }))
  const client = new AbortController()
  const waiting = compare({ tooMuch: 'Too long.', signal: client.signal })
  const gone = new Error('the client went away')
  client.abort(gone)
  await expect(waiting).rejects.toBe(gone)
  await Promise.all(busy)
})
