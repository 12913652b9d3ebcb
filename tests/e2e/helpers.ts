import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, type Page } from '@playwright/test'

// A long name, as people have: the header must hold it beside an administrator's longer menu at every width.
export const ADMIN = {
  email: 'admin@e2e.test',
  firstName: 'Maximiliana Alejandra',
  lastName: 'Featherstonehaugh-Worthington',
  password: 'admin password 1',
}
const MAIL_DIR = 'tests/.tmp/e2e/mail'

/** Every password and key the e2e run uses: none may ever appear in the apps' logs. */
export const SECRETS_USED_IN_E2E = [
  ADMIN.password,
  'member password 1',
  'first password 1',
  'second password 2',
  'one password 1',
  'another password',
  'e2e-key',
  'e2e-secret-0123456789abcdef0123456789abcdef',
]

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}@e2e.test`
}

/** Registers through the token API (quick setup for tests that are not about sign-up). */
export async function registerUser(email = uniqueEmail(), password = 'member password 1', origin = 'http://localhost:3300') {
  const response = await fetch(`${origin}/auth/register`, {
    method: 'POST',
    // A client address of its own, so the sign-up rate limit counts each test's set-up apart.
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `203.0.113.${crypto.randomInt(1, 255)}` },
    body: JSON.stringify({ email, firstName: 'Mia', lastName: 'Member', password, confirmPassword: password }),
  })
  expect(response.status).toBe(201)
  const { token } = (await response.json()) as { token: string }
  return { email, password, token }
}

/** A bearer token for the token API. */
export async function apiToken(email: string, password: string, origin = 'http://localhost:3300') {
  const response = await fetch(`${origin}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { token: string }).token
}

/** Saves a narrative through the token API (quick, no quota used); returns its id. */
export async function createNarrative(
  token: string,
  fields: Record<string, string> = {},
  origin = 'http://localhost:3300',
): Promise<string> {
  const response = await fetch(`${origin}/api/narrative`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      company: 'Harvest Table Food Bank',
      contactName1: 'Maria Delgado',
      contactEmail1: 'maria@harvesttable.org',
      missionStatement: 'To end hunger in Travis County by connecting families with nutritious food.',
      keyPrograms: 'We run 14 neighborhood pantries and a mobile market.',
      impactMetrics: 'In 2023 we distributed 4.2 million pounds of food.',
      tone: 'conversational',
      generatedNarrative: 'Every week, Harvest Table Food Bank feeds families across Travis County.\n\nA second paragraph.',
      ...fields,
    }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

/** Saves the community foundation's call as a funder brief through the token API; returns its id. */
export async function createBrief(token: string, origin = 'http://localhost:3300'): Promise<string> {
  const form = new FormData()
  form.set('name', 'Lane County Community Foundation')
  form.set(
    'file',
    new File([new Uint8Array(fs.readFileSync('tests/fixtures/funders/community-foundation.docx'))], 'community-foundation.docx'),
  )
  const response = await fetch(`${origin}/api/funders`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

/** A form control by its visible label, which may end in the required mark ' *'. */
export function field(page: Page, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return page.getByLabel(new RegExp(`^${escaped}( \\*)?$`))
}

/** Opens a page and waits until its JavaScript runs: a form sent before then posts as it would without any. */
export async function openHydrated(page: Page, url: string) {
  await page.goto(url)
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
}

export async function signIn(page: Page, email: string, password: string, origin = '') {
  await page.goto(`${origin}/login`)
  await field(page, 'Email').fill(email)
  await field(page, 'Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
}

/** Waits for a mail to this address in the SMTP sink's folder and returns its text. */
export async function waitForMail(to: string, timeoutMs = 10_000): Promise<{ subject: string; text: string }> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const files = fs.existsSync(MAIL_DIR) ? fs.readdirSync(MAIL_DIR).filter((f) => f.endsWith('.json')) : []
    for (const file of files) {
      const mail = JSON.parse(fs.readFileSync(path.join(MAIL_DIR, file), 'utf8'))
      if (mail.to.includes(to)) return mail
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`No mail to ${to} within ${timeoutMs} ms`)
}

export const ORGANIZATION = {
  'Organization Name': 'Harvest Table Food Bank',
  Website: 'https://www.harvesttable.org',
  'Primary Contact Name': 'Maria Delgado',
  'Primary Contact Title': 'Executive Director',
  'Primary Contact Email': 'maria@harvesttable.org',
  'Primary Contact Phone': '512-555-0142',
  'Mission Statement': 'To end hunger in Travis County by connecting families with nutritious food.',
  'Key Programs and Services': 'We run 14 neighborhood pantries and a mobile market that visits rural towns every week.',
  'Geographic Focus': 'Travis County and the surrounding rural communities of Central Texas.',
  'Impact Metrics and Achievements': 'In 2023 we distributed 4.2 million pounds of food and served 38,000 individuals.',
  'Target Audience': 'Low-income families, seniors on fixed incomes, and children who rely on school meals.',
}

/** Fills the dashboard form; extra text (e.g. a fake-model marker) goes at the end of the mission. */
export async function fillNarrativeForm(page: Page, { missionSuffix = '' } = {}) {
  for (const [label, value] of Object.entries(ORGANIZATION)) {
    await field(page, label).fill(label === 'Mission Statement' ? `${value} ${missionSuffix}`.trim() : value)
  }
}

export function outputBox(page: Page) {
  return page.getByRole('region', { name: 'Narrative text' })
}
