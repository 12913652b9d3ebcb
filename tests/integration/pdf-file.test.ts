import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { FULL_INPUT } from '../setup/narrative-input'

// The PDF as a funder receives it (docs/decisions/033): downloaded from the BUILT app, with and without
// the token API, and read back with poppler's pdfinfo, pdffonts and pdftotext.
const run = promisify(execFile)
const { selectedTone, ...inputs } = FULL_INPUT

let app: AppServer
let workDir: string
let token = ''

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.resolve('tests/.tmp', 'pdf-'))
  app = await startAppServer()
  token = await registerOverHttp(app.origin, 'pdf@example.org')
})

afterAll(async () => {
  await app?.stop()
  for (const dir of [app?.dataDir, workDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

async function create(generatedNarrative: string, bearer = token) {
  const response = await fetch(`${app.origin}/api/narrative`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ ...inputs, tone: selectedTone, generatedNarrative }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

async function download(id: string, language: string) {
  const response = await fetch(`${app.origin}/api/narrative/${id}/pdf`, {
    headers: { Authorization: `Bearer ${token}`, 'Accept-Language': language },
  })
  const file = path.join(workDir, `${id}-${language}.pdf`)
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()))
  const info = (await run('pdfinfo', [file])).stdout
  return {
    response,
    info,
    fonts: (await run('pdffonts', [file])).stdout,
    text: (await run('pdftotext', ['-layout', file, '-'])).stdout,
  }
}

describe('GET /api/narrative/{id}/pdf', () => {
  it('is the Word file’s page as a PDF: its title and name, the reader’s paper, Arimo, and only “Page X of Y” in the footer', async () => {
    const id = await create('Harvest Table Food Bank fed 38,000 people in 2023.\n\nA second paragraph, with Łódź and Nguyễn.')
    const letter = await download(id, 'en-US')
    expect(letter.response.headers.get('Content-Type')).toBe('application/pdf')
    expect(letter.response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="Harvest-Table-Food-Bank-Impact-Narrative-[A-Za-z]+-\d{1,2}-\d{4}\.pdf"$/,
    )
    expect(letter.info).toMatch(/Title:\s+Harvest Table Food Bank Impact Narrative - [A-Za-z]+ \d{1,2}, \d{4}/)
    // Saved with its text through the API: people wrote it, and the file's properties say so.
    expect(letter.info).toMatch(/Creator:\s+First draft by people, with no language model; kept in Impact Narrative Studio\./)
    expect(letter.info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/)
    expect(letter.fonts).toMatch(/Arimo-Regular/)
    expect(letter.fonts).toMatch(/Arimo-Bold/)
    expect(letter.text).toContain('Harvest Table Food Bank fed 38,000 people in 2023.')
    expect(letter.text).toContain('Łódź and Nguyễn')
    expect(letter.text).toContain('Page 1 of 1')
    expect(letter.text).not.toMatch(/Created with|Impact Narrative Studio ·|Tone:/)
    const a4 = await download(id, 'en-GB')
    expect(a4.info).toMatch(/Page size:\s+595(\.\d+)? x 841(\.\d+)? pts \(A4\)/)
  })

  it('sets a long text and a run of 20,000 characters with no space on numbered pages, every character kept', async () => {
    const run20k = await download(await create('x'.repeat(20_000)), 'en-US')
    expect(run20k.response.status).toBe(200)
    expect(Number(/Pages:\s+(\d+)/.exec(run20k.info)![1])).toBeGreaterThan(1)
    expect(run20k.text.replace(/[^x]/g, '').length).toBeGreaterThanOrEqual(20_000)
    const lines = await download(await create('line\n'.repeat(2000).trim()), 'en-US')
    const pages = Number(/Pages:\s+(\d+)/.exec(lines.info)![1])
    expect(pages).toBeGreaterThan(10)
    expect(lines.text).toContain(`Page 1 of ${pages}`)
    expect(lines.text).toContain(`Page ${pages} of ${pages}`)
  })

  it('is 404 for a narrative that is not the caller’s, and the page’s link needs a session', async () => {
    const id = await create('Mine.')
    const other = await registerOverHttp(app.origin, 'other-pdf@example.org')
    const foreign = await fetch(`${app.origin}/api/narrative/${id}/pdf`, { headers: { Authorization: `Bearer ${other}` } })
    expect(foreign.status).toBe(404)
    const anonymous = await fetch(`${app.origin}/resources/narratives/${id}/pdf`, { redirect: 'manual' })
    expect([302, 401, 404]).toContain(anonymous.status)
  })
})
