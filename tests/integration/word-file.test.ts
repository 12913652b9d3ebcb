import { execFile } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { FULL_INPUT } from '../setup/narrative-input'

// The Word file as a funder receives it: downloaded from the BUILT app, opened by a real word processor
// (LibreOffice, headless) and printed to PDF, then read back with poppler's pdfinfo and pdftotext.
const run = promisify(execFile)

const { selectedTone, ...inputs } = FULL_INPUT
const ORGANISATION = {
  ...inputs,
  tone: selectedTone,
  // Long lines of short words put a phone number and a range near a line's end somewhere in it.
  generatedNarrative: Array.from(
    { length: 40 },
    (_, i) => `${'Call us on 512-555-0142 or visit from 2019-2023 '.repeat(1 + (i % 4))}and ${'a '.repeat(i)}more.`,
  ).join('\n\n'),
}

type Printed = { pageSize: string; pages: number; text: string }

let app: AppServer
let overridden: AppServer
let workDir: string
let token = ''
let overriddenToken = ''
let id = ''
let overriddenId = ''
let createdAt = new Date()

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.resolve('tests/.tmp', 'word-'))
  ;[app, overridden] = await Promise.all([
    startAppServer(),
    startAppServer({ env: { DOCUMENT_LOCALE: 'en-GB', DOCUMENT_PAPER: 'a4', DOCUMENT_CREDIT: 'true' } }),
  ])
  ;[token, overriddenToken] = await Promise.all([
    registerOverHttp(app.origin, 'word@example.org'),
    registerOverHttp(overridden.origin, 'word@example.org'),
  ])
  ;[id, overriddenId] = await Promise.all([create(app, token), create(overridden, overriddenToken)])
})

afterAll(async () => {
  await Promise.all([app?.stop(), overridden?.stop()])
  for (const dir of [app?.dataDir, overridden?.dataDir, workDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

async function create(server: AppServer, bearer: string) {
  const response = await fetch(`${server.origin}/api/narrative`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
    body: JSON.stringify(ORGANISATION),
  })
  expect(response.status).toBe(201)
  const { data } = (await response.json()) as { data: { id: string; createdAt: string } }
  createdAt = new Date(data.createdAt) // the title's date: the record's, not the test's (midnight)
  return data.id
}

/** Downloads the narrative as the given reader, prints it with LibreOffice and reads the PDF. */
async function print(server: AppServer, bearer: string, narrativeId: string, acceptLanguage?: string): Promise<Printed> {
  const headers: Record<string, string> = { Authorization: `Bearer ${bearer}` }
  if (acceptLanguage) headers['Accept-Language'] = acceptLanguage
  const response = await fetch(`${server.origin}/api/narrative/${narrativeId}/docx?tz=UTC`, { headers })
  expect(response.status).toBe(200)
  const name = crypto.randomUUID()
  const docx = path.join(workDir, `${name}.docx`)
  fs.writeFileSync(docx, Buffer.from(await response.arrayBuffer()))
  // A profile of its own, so parallel runs of soffice never share (and lock) one.
  const profile = `file://${path.join(workDir, `profile-${name}`)}`
  await run('soffice', [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', workDir, docx], {
    timeout: 90_000,
  })
  const pdf = path.join(workDir, `${name}.pdf`)
  const info = (await run('pdfinfo', [pdf])).stdout
  const text = (await run('pdftotext', ['-layout', pdf, '-'])).stdout
  return { pageSize: /^Page size:\s+(.+)$/m.exec(info)?.[1] ?? '', pages: Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]), text }
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

describe('the Word file, opened and printed by LibreOffice', () => {
  it("is laid out on the reader's paper and dated the reader's way", { timeout: 180_000 }, async () => {
    const american = await print(app, token, id, 'en-US,en;q=0.9')
    expect(american.pageSize).toMatch(/^612 x 792 pts/) // US Letter
    const british = await print(app, token, id, 'en-GB,en;q=0.8')
    expect(british.pageSize).toMatch(/^595(\.\d+)? x 841(\.\d+)? pts/) // A4
    const kenyan = await print(app, token, id, 'sw-KE, en;q=0.5')
    expect(kenyan.pageSize).toMatch(/^595(\.\d+)? x 841(\.\d+)? pts/)

    const long = (locale: string) => createdAt.toLocaleDateString(locale, { timeZone: 'UTC', dateStyle: 'long' })
    // The title on one line, the date on the next: neither wraps.
    for (const [printed, date] of [
      [american, long('en-US')],
      [british, long('en-GB')],
    ] as const) {
      const [title, dated] = lines(printed.text)
      expect(title).toBe('Harvest Table Food Bank Impact Narrative')
      expect(dated).toBe(date)
    }
  })

  it('keeps every phone number and range whole, prints no link, credit or tone, and numbers its pages', { timeout: 180_000 }, async () => {
    const printed = await print(app, token, id, 'en-US')
    expect(printed.pages).toBeGreaterThan(1)
    const all = lines(printed.text)
    // Every hyphenated figure is whole on its line: none ends a line with its hyphen.
    expect(all.filter((line) => /\d-$/.test(line))).toEqual([])
    expect(printed.text.match(/512-555-0142/g)!.length).toBeGreaterThan(20)
    expect(printed.text).not.toMatch(/localhost|127\.0\.0\.1/)
    expect(printed.text).not.toMatch(/Created with|Impact Narrative Studio|Tone:/)
    expect(printed.text).toContain(`Page 1 of ${printed.pages}`)
    expect(printed.text).toContain('Primary: Maria Delgado, Executive Director (maria@harvesttable.org, 512-555-0142)')
  })

  it(
    "follows the operator's DOCUMENT_LOCALE, DOCUMENT_PAPER and DOCUMENT_CREDIT over the reader's language",
    { timeout: 180_000 },
    async () => {
      const printed = await print(overridden, overriddenToken, overriddenId, 'en-US')
      expect(printed.pageSize).toMatch(/^595(\.\d+)? x 841(\.\d+)? pts/)
      expect(lines(printed.text)[1]).toBe(createdAt.toLocaleDateString('en-GB', { timeZone: 'UTC', dateStyle: 'long' }))
      // The credit links to the product, never to this instance's localhost origin.
      expect(printed.text).toMatch(/Created with Impact Narrative Studio · https:\/\//)
      expect(printed.text).not.toMatch(/localhost|127\.0\.0\.1/)
      const pdf = await fetch(`${overridden.origin}/api/narrative/${overriddenId}/pdf`, {
        headers: { Authorization: `Bearer ${overriddenToken}` },
      })
      const pdfFile = path.join(workDir, `${overriddenId}-credit.pdf`)
      fs.writeFileSync(pdfFile, Buffer.from(await pdf.arrayBuffer()))
      expect((await run('pdftotext', [pdfFile, '-'])).stdout).toContain('Created with Impact Narrative Studio')
    },
  )
})
