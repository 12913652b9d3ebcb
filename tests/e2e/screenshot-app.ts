import fs from 'node:fs'
import { request } from '@playwright/test'
import { FULL_INPUT } from '../setup/narrative-input'

// The app the screenshot comparisons run against: one of its own, on its embedded defaults (the
// offline drafter), its clock fixed (tests/fixtures/fixed-clock.ts), filled once before any test by the
// global setup, and only ever read by the screenshots, so every run shows the same pages.
export const SCREENSHOT_PORT = 3302
export const SCREENSHOT_ORIGIN = `http://localhost:${SCREENSHOT_PORT}`
/** The instant the app's clock starts at; the browser's clock stands still there. */
export const SCREENSHOT_CLOCK = '2026-03-02T09:00:00Z'
export const SCREENSHOT_ACCOUNTS = {
  admin: { email: 'sam@example.org', firstName: 'Sam', lastName: 'Rivera', password: 'screenshots admin 1' },
  member: { email: 'maria@harvesttable.org', firstName: 'Maria', lastName: 'Delgado', password: 'screenshots member 1' },
}
const DIR = 'tests/.tmp/e2e/screens'
/** Each account's cookies, signed in, for `test.use({ storageState })`. */
export const SIGNED_IN = { admin: `${DIR}/admin.json`, member: `${DIR}/member.json` }

/** What the screenshots show of the member's: a narrative, a funder brief, and a narrative written for it. */
export type ScreenshotIds = { narrative: string; funder: string; forFunder: string }

/**
 * The administrator (the first account), a member, and what the member had the offline drafter write
 * (a narrative; the community foundation's call of the tests, and a narrative for it), all within the
 * clock's first minute: the pages show times to the minute.
 */
export async function fillScreenshotApp(): Promise<ScreenshotIds> {
  fs.mkdirSync(DIR, { recursive: true })
  const tokens = []
  for (const account of [SCREENSHOT_ACCOUNTS.admin, SCREENSHOT_ACCOUNTS.member]) {
    const answer = await post('/auth/register', { ...account, confirmPassword: account.password })
    tokens.push(((await answer.json()) as { token: string }).token)
  }
  const narrative = await generate(tokens[1])
  const funder = await addBrief(tokens[1])
  const forFunder = await generate(tokens[1], { funderId: funder, amountRequested: '$25,000' })
  const { data } = (await (await get(`/api/narrative/${forFunder}`, tokens[1])).json()) as { data: { createdAt: string } }
  if (Date.parse(data.createdAt) - Date.parse(SCREENSHOT_CLOCK) >= 60_000)
    throw new Error(`The screenshot app was filled at ${data.createdAt}, past its first minute: its pages would not match`)

  for (const role of ['admin', 'member'] as const) {
    const { email, password } = SCREENSHOT_ACCOUNTS[role]
    const browser = await request.newContext({ baseURL: SCREENSHOT_ORIGIN })
    // Signing in redirects to the dashboard, which takes the welcome toast: no page shot later shows it.
    const signedIn = await browser.post('/login', { form: { email, password, redirectTo: '' } })
    if (!signedIn.url().endsWith('/dashboard')) throw new Error(`${email} could not sign in to the screenshot app: ${signedIn.status()}`)
    await browser.storageState({ path: SIGNED_IN[role] })
    await browser.dispose()
  }
  return { narrative, funder, forFunder }
}

/** A narrative the offline drafter writes, as the dashboard asks for one (for a funder's brief, with `forFunder`). */
async function generate(token: string, forFunder: Record<string, string> = {}): Promise<string> {
  const events = await (
    await post('/api/narrative/generate', { ...FULL_INPUT, selectedTone: 'conversational', ...forFunder }, token)
  ).text()
  const id = /"id":"([^"]+)"/.exec(events)?.[1]
  if (!id) throw new Error(`The screenshot app wrote no narrative: ${events.slice(0, 300)}`)
  return id
}

/** The community foundation's call of the tests, uploaded as its Word file. */
async function addBrief(token: string): Promise<string> {
  const form = new FormData()
  form.set('name', 'Lane County Community Foundation')
  form.set(
    'file',
    new File([new Uint8Array(fs.readFileSync('tests/fixtures/funders/community-foundation.docx'))], 'community-foundation.docx'),
  )
  const answer = await fetch(`${SCREENSHOT_ORIGIN}/api/funders`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  })
  if (answer.status !== 201) throw new Error(`POST /api/funders on the screenshot app: ${answer.status} ${await answer.text()}`)
  return ((await answer.json()) as { data: { id: string } }).data.id
}

async function post(path: string, body: unknown, token?: string) {
  const answer = await fetch(`${SCREENSHOT_ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  if (!answer.ok) throw new Error(`POST ${path} on the screenshot app: ${answer.status} ${await answer.text()}`)
  return answer
}

async function get(path: string, token: string) {
  const answer = await fetch(`${SCREENSHOT_ORIGIN}${path}`, { headers: { Authorization: `Bearer ${token}` } })
  if (!answer.ok) throw new Error(`GET ${path} on the screenshot app: ${answer.status}`)
  return answer
}
