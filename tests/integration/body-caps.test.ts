import fs from 'node:fs'
import { BODIES_PER_MINUTE } from '~/server/edge/limits.server'
import { BODY_LIMITS, FORM_ENTRIES_MAX } from '~/server/edge/body-limit.server'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { readAnswer } from '../setup/http-answer'
import { multipart } from '../../scripts/hostile/call-files'

// Bodies by route and type (docs/decisions/025), against the BUILT app: URL-encoded forms are small and
// few-fielded everywhere, multipart takes a file only where one is taken, a sender past their allowance
// is refused before the body is read, and a field past its limit never comes back.

const KB = 1024
const PASSWORD = 'a good password'
const DOCX = { name: 'community-foundation.docx', bytes: fs.readFileSync('tests/fixtures/funders/community-foundation.docx') }

let app: AppServer
let owner: { token: string; cookie: string }
let funderId: string

beforeAll(async () => {
  app = await startAppServer()
  await registerOverHttp(app.origin, 'admin@example.org')
  const token = await registerOverHttp(app.origin, 'owner@example.org')
  owner = { token, cookie: await signIn('owner@example.org') }
  const funder = await fetch(`${app.origin}/api/funders`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'Body Caps Fund', callText: 'Priority will be given to food security in Lane County.' }),
  })
  funderId = ((await funder.json()) as { data: { id: string } }).data.id
}, 60_000)

afterAll(async () => {
  await app.stop()
  fs.rmSync(app.dataDir, { recursive: true, force: true })
})

async function signIn(email: string) {
  const login = await fetch(`${app.origin}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: PASSWORD }),
    redirect: 'manual',
  })
  return login.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

function post(path: string, body: string | FormData, headers: Record<string, string> = {}) {
  const type: Record<string, string> = typeof body === 'string' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}
  return fetch(`${app.origin}${path}`, {
    method: 'POST',
    headers: { Cookie: owner.cookie, ...type, ...headers },
    body,
    redirect: 'manual',
  }).then(readAnswer)
}

/** The funder form as the page sends it, with its long fields at their limits in English. */
function funderForm() {
  const sentence = 'Families in Lane County, near the river, eat well; ours is the work of “every” pantry. '
  const fill = (length: number) =>
    sentence
      .repeat(Math.ceil(length / sentence.length))
      .slice(0, length)
      .trim()
  const form = new URLSearchParams({ intent: 'save', name: 'Body Caps Fund', maxWords: '500', terms: fill(2400) })
  for (let i = 0; i < 21; i++) form.append(`priorities[${i}]`, fill(300))
  for (let i = 0; i < 21; i++) form.append(`questionText[${i}]`, fill(1000))
  return form
}

describe('URL-encoded forms', () => {
  it(`take the funder form at its limits in English (under ${BODY_LIMITS.urlencoded / KB} KB), and refuse a larger one with 413`, async () => {
    const form = funderForm()
    expect(form.toString().length).toBeLessThan(BODY_LIMITS.urlencoded)
    expect((await post(`/funders/${funderId}`, form.toString())).status).toBe(302)
    const over = await post(`/funders/${funderId}`, `${form}&terms2=${'a'.repeat(BODY_LIMITS.urlencoded)}`)
    expect(over.status).toBe(413)
  })

  it(`refuse more than ${FORM_ENTRIES_MAX} fields under the cap with 413, before they are parsed`, async () => {
    const answer = await post(`/funders/${funderId}`, `intent=save&${'x&'.repeat(30_000)}`, { Accept: 'application/json' })
    expect(answer.status).toBe(413)
    expect(answer.json.error).toBe(`Form has too many fields (at most ${FORM_ENTRIES_MAX})`)
  })
})

describe('multipart forms', () => {
  it('are taken by the funder form, which is sent as multipart', async () => {
    const form = new FormData()
    for (const [name, value] of funderForm()) form.append(name, value)
    expect((await post(`/funders/${funderId}`, form)).status).toBe(302)
  })

  it(`are capped at ${BODY_LIMITS.form / KB} KB where no file is taken`, async () => {
    const form = multipart({ intent: 'save', name: 'Body Caps Fund', terms: 'a'.repeat(BODY_LIMITS.form) }, null)
    expect((await post(`/funders/${funderId}`, form)).status).toBe(413)
    expect((await post('/dashboard', form)).status).toBe(413)
  })

  it(`refuse more than ${FORM_ENTRIES_MAX} parts on an upload route, where the body may be 6 MB`, async () => {
    const form = new FormData()
    for (let i = 0; i < 2000; i++) form.append(`x${i}`, '')
    const answer = await post('/api/funders/extract', form, { Authorization: `Bearer ${owner.token}` })
    expect(answer.status).toBe(413)
    expect(answer.json.error).toMatch(/too many fields/)
  })

  it('still carry a Word file to the page that adds a brief and to the funder API', async () => {
    const page = await post('/funders', multipart({ intent: 'add', name: 'Lane County Community Foundation' }, DOCX))
    expect(page.status).toBe(302)
    expect(page.headers.get('Location')).toMatch(/^\/funders\/\w+/)
    const bearer = { Authorization: `Bearer ${owner.token}` }
    const extract = await post('/api/funders/extract', multipart({}, DOCX), bearer)
    expect(extract.status).toBe(200)
    expect(extract.json.data.maxWords).toBe(500)
    const created = await post('/api/funders', multipart({ name: 'Lane County Community Foundation' }, DOCX), bearer)
    expect(created.status).toBe(201)
  })
})

describe('a field past its limit', () => {
  it('is not sent back: the page says the pasted text was too long and leaves the field empty', async () => {
    const pasted = 'Ω'.repeat(150_000)
    const answer = await post('/funders', multipart({ intent: 'add', name: 'Too Long Fund', callText: pasted }, null))
    expect(answer.status).toBe(400)
    expect(answer.text).toContain('The pasted text was too long (150,000 characters; at most 100,000), so it was not kept.')
    expect(answer.text).not.toContain('ΩΩΩΩ')
    expect(answer.text).toContain('Too Long Fund')
    expect(answer.text.length).toBeLessThan(200 * KB)
  })
})

describe('the allowance of bodies', () => {
  it('answers 429 before the body is read: a person past it sending an oversized body is not told 413', async () => {
    const token = await registerOverHttp(app.origin, 'sender@example.org')
    const send = (body: string) =>
      fetch(`${app.origin}/api/funders/none`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body,
      })
    for (let sent = 0; sent < BODIES_PER_MINUTE; sent += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => send('{}')))
      expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(404))
    }
    const refused = await readAnswer(await send(`{"callText": "${'a'.repeat(2 * BODY_LIMITS.callJson)}"}`))
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    // Another person is not held by it.
    expect((await post(`/funders/${funderId}`, 'intent=save&name=Body+Caps+Fund')).status).toBe(302)
  })
})
