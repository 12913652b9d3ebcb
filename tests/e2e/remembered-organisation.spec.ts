import { expect, test, type Page } from '@playwright/test'
import { ADMIN, apiToken, field, fillNarrativeForm, registerUser, signIn } from './helpers'

// docs/decisions/019: the organisation remembered on the server, local
// storage for unsaved edits only, and a quota that says when it resets.

const PREFIX = 'impact-narrative-studio:form'
const storedForms = (page: Page) =>
  page.evaluate((prefix) => Object.entries(localStorage).filter(([key]) => key === prefix || key.startsWith(`${prefix}:`)), PREFIX)

async function generate(page: Page) {
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
  await expect(page.getByText('Narrative generated successfully!')).toBeVisible({ timeout: 30_000 })
}

test('sign in from a fresh browser and find the form filled; a copy left in the first browser does not hide it', async ({
  page,
  browser,
}) => {
  const { email, password } = await registerUser()
  await signIn(page, email, password)
  await fillNarrativeForm(page)
  await expect.poll(async () => (await storedForms(page)).length).toBe(1)
  await generate(page)
  // The generation started: the server remembers the inputs, and the local copy is gone.
  await expect.poll(async () => (await storedForms(page)).length).toBe(0)
  // The first browser opens the dashboard again and leaves it: nothing typed, nothing to keep.
  await page.reload()
  await expect(field(page, 'Organization Name')).toHaveValue('Harvest Table Food Bank')

  const fresh = await browser.newContext()
  try {
    const other = await fresh.newPage()
    await signIn(other, email, password)
    await expect(field(other, 'Organization Name')).toHaveValue('Harvest Table Food Bank')
    await expect(field(other, 'Impact Metrics and Achievements')).toHaveValue(/38,000 individuals/)
    await field(other, 'Organization Name').fill('Harvest Table Food Bank North')
    await generate(other)
  } finally {
    await fresh.close()
  }

  // Back in the first browser, the organisation described since on the other one.
  await page.reload()
  await expect(field(page, 'Organization Name')).toHaveValue('Harvest Table Food Bank North')

  // Typed and not generated: kept in this browser, and newer than the server's copy.
  await field(page, 'Website').fill('https://unsaved.example.org')
  await expect.poll(async () => (await storedForms(page)).length).toBe(1)
  await page.reload()
  await expect(field(page, 'Website')).toHaveValue('https://unsaved.example.org')
  await expect(field(page, 'Organization Name')).toHaveValue('Harvest Table Food Bank North')
  // Typed back to what the server has: nothing unsaved is left to keep.
  await field(page, 'Website').fill('https://www.harvesttable.org')
  await expect.poll(async () => (await storedForms(page)).length).toBe(0)
})

test("a shared browser shows no one else's organisation: cleared at sign-out, and when another user opens the dashboard", async ({
  page,
}) => {
  const first = await registerUser()
  const second = await registerUser()
  await signIn(page, first.email, first.password)
  await fillNarrativeForm(page)
  await expect.poll(async () => (await storedForms(page)).map(([key]) => key)).toEqual([expect.stringMatching(new RegExp(`^${PREFIX}:.+`))])

  // Signing out forgets every form kept in this browser, before the request leaves.
  await page.locator('.user-menu summary').click()
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
  expect(await storedForms(page)).toEqual([])

  // A session that ended without signing out left its copy (and the old, unkeyed one) behind.
  await signIn(page, first.email, first.password)
  await field(page, 'Organization Name').fill('First Person Org')
  await expect.poll(async () => (await storedForms(page)).length).toBe(1)
  await page.evaluate((prefix) => localStorage.setItem(prefix, JSON.stringify({ company: 'Unkeyed Org' })), PREFIX)
  await page.context().clearCookies()

  await signIn(page, second.email, second.password)
  await expect(field(page, 'Organization Name')).toHaveValue('')
  await expect.poll(() => storedForms(page)).toEqual([])
  // A form typed and then emptied again, as it was first shown (its default tone included), holds nothing to keep.
  await field(page, 'Organization Name').fill('Second Person Org')
  await expect.poll(async () => (await storedForms(page)).length).toBe(1)
  await field(page, 'Organization Name').fill('')
  await expect.poll(() => storedForms(page)).toEqual([])
})

test('the quota says what is left and when it resets, and at zero says so at the top', async ({ page, request }) => {
  const { email, password, token } = await registerUser()
  const profile = await request.get('/auth/profile', { headers: { Authorization: `Bearer ${token}` } })
  const { id, resetsAt } = (await profile.json()) as { id: string; resetsAt: string }
  const now = new Date()
  expect(resetsAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString())
  const admin = await apiToken(ADMIN.email, ADMIN.password)
  const limited = await request.patch(`/auth/users/${id}`, { headers: { Authorization: `Bearer ${admin}` }, data: { dailyLimit: 1 } })
  expect(limited.status()).toBe(200)

  await signIn(page, email, password)
  await expect(page.getByText('1 narrative left today')).toBeVisible()
  await expect(page.getByText(/^Your limit is 1 a day · 50 of 50 answers and variants left · resets in (\d+ h|\d+ min)$/)).toBeVisible()
  await expect(page.getByText(/You have used all/)).toHaveCount(0)

  await fillNarrativeForm(page)
  await generate(page)
  await expect(page.getByText('0 narratives left today')).toBeVisible()
  const notice = page.getByRole('status').filter({ hasText: "You have used all 1 of today's narratives." })
  await expect(notice).toHaveText(/^You have used all 1 of today's narratives\. They reset in (\d+ h|\d+ min), at midnight UTC\.$/)
  await expect(page.getByRole('button', { name: 'Generate Impact Narrative' })).toBeDisabled()
})
