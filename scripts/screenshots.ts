// npm run screenshots: every page of the BUILT app (npm run build first), at a desktop and a phone width,
// into docs/screenshots/. The app runs on its embedded defaults (the offline drafter) with a data folder
// of its own, filled through its own API and pages, and is stopped afterwards.
import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { registerOverHttp, startAppServer } from '../tests/setup/app-server'
import { FULL_INPUT } from '../tests/setup/narrative-input'

const OUT = path.resolve('docs/screenshots')
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]
const ADMIN = { email: 'admin@example.org', password: 'screenshots admin 1' }
const MEMBER = { email: 'maria@harvesttable.org', password: 'screenshots member 1' }

const ORGANISATION = { ...FULL_INPUT, selectedTone: 'conversational' }

type Shot = { name: string; as: 'visitor' | 'member' | 'admin'; path: string; before?: (page: Page) => Promise<void> }

async function main() {
  fs.mkdirSync(OUT, { recursive: true })
  const app = await startAppServer()
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  try {
    await registerOverHttp(app.origin, ADMIN.email, ADMIN.password)
    const token = await registerOverHttp(app.origin, MEMBER.email, MEMBER.password)
    const id = await generate(app.origin, token)
    const funderId = await addBrief(app.origin, token)
    const forFunder = await generate(app.origin, token, { funderId, amountRequested: '$25,000' })
    for (const size of WIDTHS) {
      for (const shot of shots(id, { funderId, forFunder })) {
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, baseURL: app.origin })
        const page = await context.newPage()
        if (shot.as !== 'visitor') await signIn(page, shot.as === 'admin' ? ADMIN : MEMBER)
        await page.goto(shot.path)
        await shot.before?.(page)
        await page.screenshot({ path: path.join(OUT, `${shot.name}-${size.name}.png`), fullPage: true, animations: 'disabled' })
        await context.close()
      }
    }
    console.log(`Screenshots written to ${path.relative(process.cwd(), OUT)}/`)
  } finally {
    await browser.close()
    await app.stop()
    fs.rmSync(app.dataDir, { recursive: true, force: true })
  }
}

function shots(id: string, { funderId, forFunder }: { funderId: string; forFunder: string }): Shot[] {
  const narrative = `/admin/narratives/${id}`
  return [
    { name: 'login', as: 'visitor', path: '/login' },
    { name: 'signup', as: 'visitor', path: '/signup' },
    { name: 'forgot-password', as: 'visitor', path: '/forgot-password' },
    { name: 'terms', as: 'visitor', path: '/terms' },
    { name: 'not-found', as: 'visitor', path: '/resources/no-such-thing' },
    { name: 'dashboard', as: 'member', path: '/dashboard' },
    { name: 'dashboard-written', as: 'member', path: `/dashboard?narrative=${id}` },
    { name: 'narratives', as: 'member', path: '/admin/narratives' },
    { name: 'narrative', as: 'member', path: narrative },
    { name: 'narrative-inputs', as: 'member', path: narrative, before: (page) => page.locator('.inputs-disclosure > summary').click() },
    { name: 'narrative-edit', as: 'member', path: `${narrative}?edit=1` },
    { name: 'narrative-delete', as: 'member', path: `${narrative}/delete` },
    { name: 'funders', as: 'member', path: '/funders' },
    { name: 'funder', as: 'member', path: `/funders/${funderId}` },
    { name: 'narrative-for-funder', as: 'member', path: `/admin/narratives/${forFunder}` },
    { name: 'account', as: 'member', path: '/account' },
    { name: 'users', as: 'admin', path: '/users' },
    { name: 'narratives-admin', as: 'admin', path: '/admin/narratives' },
  ]
}

/** A narrative written by the offline drafter, as the dashboard writes one (for a funder's brief, with `forFunder`). */
async function generate(origin: string, token: string, forFunder: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${origin}/api/narrative/generate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...ORGANISATION, ...forFunder }),
  })
  const events = await response.text()
  const id = /"id":"([^"]+)"/.exec(events)?.[1]
  if (!response.ok || !id) throw new Error(`generate: ${response.status} ${events.slice(0, 500)}`)
  return id
}

/** The community foundation's call of the tests, uploaded as its Word file. */
async function addBrief(origin: string, token: string): Promise<string> {
  const form = new FormData()
  form.set('name', 'Lane County Community Foundation')
  form.set(
    'file',
    new File([new Uint8Array(fs.readFileSync('tests/fixtures/funders/community-foundation.docx'))], 'community-foundation.docx'),
  )
  const response = await fetch(`${origin}/api/funders`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })
  if (response.status !== 201) throw new Error(`funder: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: { id: string } }).data.id
}

async function signIn(page: Page, { email, password }: { email: string; password: string }) {
  await page.goto('/login')
  await page.getByLabel(/^Email/).fill(email)
  await page.getByLabel(/^Password/).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/dashboard/)
}

await main()
