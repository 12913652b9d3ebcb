import { expect, test, type Page } from '@playwright/test'
import { createNarrative, field, fillNarrativeForm, outputBox, registerUser, signIn } from './helpers'

const OFFLINE = 'http://localhost:3301'

async function newUserWithNarrative(page: Page, origin = 'http://localhost:3300', fields: Record<string, string> = {}) {
  const { email, password, token } = await registerUser(undefined, undefined, origin)
  const id = await createNarrative(token, fields, origin)
  await signIn(page, email, password, origin === 'http://localhost:3300' ? '' : origin)
  return { email, password, token, id }
}

test('a figure the model invented is flagged in the text, and the summary links to it', async ({ page }) => {
  const { email, password } = await registerUser()
  await signIn(page, email, password)
  await fillNarrativeForm(page)
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
  await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible({ timeout: 30_000 })
  // The fake model's story has a person and a figure the organisation never gave.
  await expect(page.getByText(/^\d+ statements are not in your inputs\.$/)).toBeVisible()
  const flagged = outputBox(page).locator('mark.claim-unsupported')
  await expect(flagged.filter({ hasText: /^12/ }).first()).toContainText('not in your inputs')
  const link = page.getByRole('link', { name: '“12”' }).first()
  const target = await link.getAttribute('href')
  await link.click()
  await expect(page.locator(target!)).toBeInViewport()
})

test('edit, keep saves close together as one version, compare the first text and restore it', async ({ page }) => {
  const { id } = await newUserWithNarrative(page, undefined, { generatedNarrative: 'Harvest Table Food Bank fed many families.' })
  await page.goto(`/admin/narratives/${id}`)
  const versions = page.getByRole('region', { name: 'Versions' }).getByRole('listitem')
  await expect(page.getByText('Saves made within 10 minutes of each other are kept as one version.')).toBeVisible()
  for (const text of ['Harvest Table Food Bank fed 38,000 families!', 'Harvest Table Food Bank fed 38,000 families.']) {
    await page.getByRole('link', { name: 'Edit Narrative' }).click()
    await page.getByRole('textbox', { name: 'Generated Narrative' }).fill(text)
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(page.getByText('Narrative updated successfully!').last()).toBeVisible()
    // The first save's toast may still be on screen: the editor closing is this save's own end.
    await expect(page.getByRole('textbox', { name: 'Generated Narrative' })).toBeHidden()
    // The first text stays a version of its own; the two saves are one writing session.
    await expect(versions).toHaveCount(2)
  }
  await expect(versions.first()).toContainText('(current)')
  await versions.nth(1).getByRole('link').click()
  await expect(page.locator('.word-diff del')).toHaveText('[removed: many]')
  await expect(page.locator('.word-diff ins')).toHaveText('[added: 38,000]')
  await page.getByRole('button', { name: 'Restore this version' }).click()
  await expect(page.getByText('Version restored.')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Generated Narrative' })).toContainText('Harvest Table Food Bank fed many families.')
  await expect(versions).toHaveCount(3)
  await expect(versions.first()).toContainText('Restored')
})

test('fit to 280 characters and to 40 words, with live counts, copy and the Word file', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: OFFLINE })
  const { id } = await newUserWithNarrative(page, OFFLINE)
  await page.goto(`${OFFLINE}/admin/narratives/${id}`)
  const panel = page.getByRole('region', { name: 'Fit to a limit' })

  await panel.getByRole('radio', { name: /^Social post/ }).check()
  await panel.getByRole('button', { name: 'Write variant' }).click()
  const social = panel.locator('.variant').first()
  await expect(social).toContainText(/Social post/, { timeout: 30_000 })
  const characters = Number((await social.getByText(/ \/ 280 characters$/).textContent())!.split(' ')[0])
  expect(characters).toBeGreaterThan(50)
  expect(characters).toBeLessThanOrEqual(280)

  await panel.getByRole('radio', { name: /^Custom/ }).check()
  await panel.getByLabel('Most words').fill('40')
  await panel.getByRole('button', { name: 'Write variant' }).click()
  await expect(panel.locator('.variant')).toHaveCount(2, { timeout: 30_000 })
  const custom = panel.locator('.variant').first()
  const words = Number((await custom.getByText(/ \/ 40 words$/).textContent())!.split(' ')[0])
  expect(words).toBeGreaterThan(5)
  expect(words).toBeLessThanOrEqual(40)

  await custom.getByRole('button', { name: 'Copy text' }).click()
  await expect(page.getByText('Copied to the clipboard.')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    (await custom.locator('.variant-text').textContent())!.replace(/ \(statement \d+, not in your inputs\)/g, ''),
  )
  const download = page.waitForEvent('download')
  await custom.getByRole('link', { name: 'Download as Word Document' }).click()
  expect((await download).suggestedFilename()).toMatch(/\(Custom\)|Custom/)
})

test('sign in from a fresh browser and find the form filled with the organisation', async ({ page, browser }) => {
  const { email, password } = await registerUser()
  await signIn(page, email, password)
  await fillNarrativeForm(page)
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
  await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible({ timeout: 30_000 })

  const fresh = await browser.newContext({ javaScriptEnabled: false })
  try {
    const other = await fresh.newPage()
    await signIn(other, email, password)
    await expect(field(other, 'Organization Name')).toHaveValue('Harvest Table Food Bank')
    await expect(field(other, 'Impact Metrics and Achievements')).toHaveValue(/38,000 individuals/)
    await expect(other.getByText(/^Your limit is 10 a day · 50 of 50 answers and variants left · resets in \d+ (h|min)$/)).toBeVisible()
  } finally {
    await fresh.close()
  }

  // Signing out forgets this browser's unsaved edits.
  await field(page, 'Website').fill('https://unsaved.example.org')
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('impact-narrative-studio:form')).length))
    .toBe(1)
  // An edit whose save is still waiting when Logout is pressed, on a sign-out slower than that wait.
  await field(page, 'Website').fill('https://unsaved-again.example.org')
  await page.route('**/logout*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    await route.continue()
  })
  await page.locator('.user-menu summary').click()
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('impact-narrative-studio:form')))).toEqual([])
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a variant is written and shown', async ({ page }) => {
    const { id } = await newUserWithNarrative(page, OFFLINE)
    await page.goto(`${OFFLINE}/admin/narratives/${id}`)
    const panel = page.getByRole('region', { name: 'Fit to a limit' })
    await panel.getByRole('radio', { name: /^Pitch/ }).check()
    await panel.getByRole('button', { name: 'Write variant' }).click()
    await expect(page.getByText('Variant written.')).toBeVisible({ timeout: 30_000 })
    await expect(panel.locator('.variant')).toHaveCount(1)
    await expect(panel.locator('.variant').getByText(/ \/ 50 words$/)).toBeVisible()
  })
})
