import { readForm } from '~/server/http/form.server'
import { CALL_FILE_MAX_BYTES } from '~/shared/funder-schema'
import { FORM_ENTRIES_MAX } from '~/server/edge/body-limit.server'

const BOUNDARY = '----form7MA4YWxk'

/** A multipart body as a browser writes it, sent in pieces of `pieceBytes` as a socket delivers it. */
function multipartRequest(body: string | Uint8Array, { pieceBytes = 64 * 1024, type = `multipart/form-data; boundary=${BOUNDARY}` } = {}) {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  let at = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(at, (at += pieceBytes)))
    },
  })
  return new Request('http://app.test/funders', {
    method: 'POST',
    body: stream,
    headers: { 'Content-Type': type },
    duplex: 'half',
  } as RequestInit)
}

function part(name: string, value: string, file?: { filename: string; type: string }) {
  const disposition = file
    ? `form-data; name="${name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}`
    : `form-data; name="${name}"`
  return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n${value}\r\n`
}

async function entriesOf(form: FormData) {
  const entries: [string, string | { name: string; type: string; text: string }][] = []
  for (const [name, value] of form)
    entries.push([name, typeof value === 'string' ? value : { name: value.name, type: value.type, text: await value.text() }])
  return entries.sort(([a], [b]) => a.localeCompare(b))
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )

describe('readForm reads a multipart form as it arrives', () => {
  const body =
    part('name', 'Fondation Émile — appel 2027') +
    part('priority', 'Rural food security') +
    part('priority', 'Young carers') +
    part('file', 'Le fonds soutient les projets alimentaires.\n', { filename: 'appel-à-projets.txt', type: 'text/plain' }) +
    part('empty', '', { filename: '', type: 'application/octet-stream' }) +
    `--${BOUNDARY}--\r\n`

  it.each([1, 7, 64 * 1024])('as the platform would, in pieces of %i bytes', async (pieceBytes) => {
    const ours = await readForm(multipartRequest(body, { pieceBytes }))
    const platform = await multipartRequest(body).formData()
    expect(await entriesOf(ours)).toEqual(await entriesOf(platform))
    expect(ours.getAll('priority')).toEqual(['Rural food security', 'Young carers'])
  })

  it('keeps a file one byte past the largest read, so its size still says it is too large', async () => {
    const big = 'a'.repeat(CALL_FILE_MAX_BYTES + 300_000)
    const form = await readForm(multipartRequest(part('file', big, { filename: 'call.txt', type: 'text/plain' }) + `--${BOUNDARY}--\r\n`))
    expect((form.get('file') as File).size).toBe(CALL_FILE_MAX_BYTES + 1)
  })

  // The body's watch (body-limit.server.ts) answers 413 to too many parts as they arrive; a count here that
  // fired first, within the same network piece, would answer 400 instead.
  it('leaves refusing too many parts to the body watch: one past the cap is still read', async () => {
    const parts = Array.from({ length: FORM_ENTRIES_MAX + 1 }, (_, i) => part(`x${i}`, '')).join('')
    const form = await readForm(multipartRequest(parts + `--${BOUNDARY}--\r\n`))
    expect([...form.keys()]).toHaveLength(FORM_ENTRIES_MAX + 1)
  })

  it('keeps a field to 512 KB, longer than any field a form takes', async () => {
    const form = await readForm(multipartRequest(part('callText', 'é'.repeat(400_000)) + `--${BOUNDARY}--\r\n`))
    expect(Buffer.byteLength(form.get('callText') as string)).toBe(512 * 1024)
  })
})

describe('readForm answers 400 to a body that is no form', () => {
  it.each([
    ['a multipart body cut short', part('name', 'Fund') + `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\nhal`],
    ['a multipart body of garbage', 'not a form at all'],
  ])('%s', async (_name, body) => {
    const refusal = await refusalOf(readForm(multipartRequest(body), 'json'))
    expect(refusal).toBeInstanceOf(Response)
    expect((refusal as Response).status).toBe(400)
    expect(await (refusal as Response).json()).toEqual({ error: expect.stringMatching(/cut short or garbled/) })
  })

  it('a multipart type that names no boundary', async () => {
    const refusal = await refusalOf(readForm(multipartRequest(part('name', 'Fund'), { type: 'multipart/form-data' })))
    expect((refusal as Response).status).toBe(400)
  })
})
