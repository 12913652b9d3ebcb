import { expect, test, type Locator, type Page } from '@playwright/test'
import { fillNarrativeForm, outputBox, registerUser, signIn } from './helpers'

async function signInNewUser(page: Page, origin = '') {
  const { email, password } = await registerUser(undefined, undefined, origin || undefined)
  await signIn(page, email, password, origin)
}

const quota = (page: Page) => page.getByText(/^\d+ narratives? left today$/)

test('generates a narrative: the text grows in the box, then it is saved and the count drops', async ({ page }) => {
  await signInNewUser(page)
  await expect(quota(page)).toHaveText('10 narratives left today')
  await fillNarrativeForm(page)
  await page.getByText('Conversational').click()
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()

  await expect(page.getByRole('heading', { name: 'Generating Narrative...' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Generating...' })).toBeDisabled()
  // The pressed button is disabled: focus goes to the text being written, which is busy, and a status
  // says that writing started, once, rather than every piece being read out.
  await expect(outputBox(page)).toBeFocused()
  await expect(outputBox(page)).toHaveAttribute('aria-busy', 'true')
  await expect(page.getByRole('status').filter({ hasText: 'Writing your narrative...' })).toBeAttached()
  await expect(outputBox(page)).not.toBeEmpty()
  const early = (await outputBox(page).textContent())!.length
  await expect.poll(async () => (await outputBox(page).textContent())!.length).toBeGreaterThan(early + 20)

  await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('Written by gpt-4')).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'Narrative generated successfully!' })).toBeVisible()
  await expect(quota(page)).toHaveText('9 narratives left today')
  await expect(page.getByText(/^\d+ words \(target 300-400\)$/)).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard\?narrative=\w+/)
  await expect(outputBox(page)).toHaveAttribute('aria-busy', 'false')
  await expect(page.getByRole('status').filter({ hasText: /^Narrative written: \d+ words\.$/ })).toBeAttached()
  await expect(page.locator('[aria-live]')).toHaveCount(0)
})

test('generates several times in a row: each narrative is shown, counted and downloadable', async ({ page }) => {
  await signInNewUser(page)
  // At the model's usual pace, then one that finishes before the page has loaded the new URL, then a slow one.
  const runs = [
    { suffix: '', left: 9 },
    { suffix: '[[fake:delay=0]][[fake:pieces=4]]', left: 8 },
    { suffix: '[[fake:delay=0]][[fake:pieces=1]]', left: 7 },
    { suffix: '[[fake:delay=600]][[fake:pieces=30]]', left: 6 },
  ]
  const ids = new Set<string>()
  for (const { suffix, left } of runs) {
    await fillNarrativeForm(page, { missionSuffix: suffix })
    await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
    await expect(quota(page)).toHaveText(`${left} ${left === 1 ? 'narrative' : 'narratives'} left today`)
    await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible({ timeout: 30_000 })
    await expect(page.getByText(/^[1-9]\d* words? \(target 300-400\)$/)).toBeVisible()
    await expect(page.getByText('Your narrative will appear here.')).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Download as Word Document' })).toBeVisible()
    // Each run is a new narrative, named in the URL so a reload shows it again.
    const id = new URL(page.url()).searchParams.get('narrative')!
    expect(id).toBeTruthy()
    expect(ids.has(id)).toBe(false)
    ids.add(id)
    await page.reload()
    await expect(page.getByRole('link', { name: 'Download as Word Document' })).toBeVisible()
    await expect(page.getByText(/^[1-9]\d* words? \(target 300-400\)$/)).toBeVisible()
  }
})

test('a reload mid-generation resumes the same text', async ({ page }) => {
  await signInNewUser(page)
  await fillNarrativeForm(page, { missionSuffix: '[[fake:slow]]' })
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
  await expect(page.getByRole('heading', { name: 'Generating Narrative...' })).toBeVisible()
  await expect.poll(async () => (await outputBox(page).textContent())!.length).toBeGreaterThan(10)
  const beforeReload = (await outputBox(page).textContent())!
  await expect(page).toHaveURL(/\/dashboard\?narrative=\w+/)

  await page.reload()
  await expect(page.getByRole('heading', { name: 'Generating Narrative...' })).toBeVisible()
  await expect.poll(async () => (await outputBox(page).textContent())!.length).toBeGreaterThan(beforeReload.length)
  expect((await outputBox(page).textContent())!.slice(0, beforeReload.length)).toBe(beforeReload)
  await page.getByRole('button', { name: 'Stop' }).click()
  await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible()
})

test('Stop ends the generation and keeps the partial text', async ({ page }) => {
  await signInNewUser(page)
  await fillNarrativeForm(page, { missionSuffix: '[[fake:slow]]' })
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
  await expect(page.getByRole('heading', { name: 'Generating Narrative...' })).toBeVisible()
  await expect.poll(async () => (await outputBox(page).textContent())!.length).toBeGreaterThan(5)
  await page.getByRole('button', { name: 'Stop' }).click()

  await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible({ timeout: 2000 })
  await expect(page.getByText(/^Stopped:/)).toBeVisible()
  const partial = (await outputBox(page).textContent())!
  expect(partial.length).toBeGreaterThan(5)
  await page.waitForTimeout(700)
  expect(await outputBox(page).textContent()).toBe(partial)
  await expect(quota(page)).toHaveText('9 narratives left today')
})

test('a generation that ends before the page has read its new address still says how it ended', async ({ page }) => {
  await signInNewUser(page)
  // The page asks for the new address's data only once the generation has ended.
  await page.route(/\/dashboard\.data\?.*narrative=/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    await route.continue()
  })
  const runs = [
    { suffix: '[[fake:delay=0]][[fake:pieces=4]]', role: 'status', message: 'Narrative generated successfully!' },
    { suffix: '[[fake:401]]', role: 'alert', message: 'An error occurred while generating the narrative. Please try again.' },
  ] as const
  for (const { suffix, role, message } of runs) {
    await fillNarrativeForm(page, { missionSuffix: suffix })
    await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
    await expect(page.getByRole(role).filter({ hasText: message })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Generate Impact Narrative' })).toBeEnabled()
  }
  // The failure was refunded, and the page shows it.
  await expect(quota(page)).toHaveText('9 narratives left today')
})

test('the form is restored after a reload, and the narrative downloads as Word', async ({ page }) => {
  await signInNewUser(page)
  await fillNarrativeForm(page)
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
  // The heading reads "Generated" before any generation too: wait for this one to have started.
  await expect(quota(page)).toHaveText('9 narratives left today')
  await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible({ timeout: 30_000 })

  const downloadPromise = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download as Word Document' }).click()
  const download = await downloadPromise
  expect(download.suggestedFilename()).toMatch(/^Harvest-Table-Food-Bank-Impact-Narrative-[A-Za-z]+-\d+-\d{4}\.docx$/) // en-US: "November 22, 2026"
  await expect(page.getByText('Word document downloaded successfully!')).toBeVisible()

  await page.goto('/dashboard')
  await expect(page.getByLabel(/^Organization Name/)).toHaveValue('Harvest Table Food Bank')
  await expect(page.getByLabel(/^Impact Metrics and Achievements/)).toHaveValue(/4\.2 million pounds/)
})

test('the offline drafter writes the narrative when no model is configured', async ({ page }) => {
  const origin = 'http://localhost:3301'
  await signInNewUser(page, origin)
  await fillNarrativeForm(page)
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
  await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('Written by the offline drafter')).toBeVisible()
  await expect(outputBox(page)).toContainText('Harvest Table Food Bank')
  await expect(outputBox(page)).toContainText('38,000')
})

/** The toast hides none of these where they are on screen. */
async function expectClearOf(page: Page, toast: Locator, locators: Locator[]) {
  await expect(toast).toBeVisible()
  const toastBox = (await toast.boundingBox())!
  const { height } = page.viewportSize()!
  for (const locator of locators) {
    const box = await locator.boundingBox()
    if (!box || box.y + box.height < 0 || box.y > height) continue
    const overlaps =
      box.x < toastBox.x + toastBox.width &&
      toastBox.x < box.x + box.width &&
      box.y < toastBox.y + toastBox.height &&
      toastBox.y < box.y + box.height
    expect(overlaps, `the toast covers ${locator}`).toBe(false)
  }
}

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the dashboard at ${width} px: Generate before the text, the engine explained, a link to the saved narrative, toasts clear of the text`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height })
    const origin = 'http://localhost:3301'
    await signInNewUser(page, origin)
    // On a phone the header and the title fill the top of the screen: toasts show at its foot.
    if (width < 768) {
      await expectClearOf(page, page.getByRole('status').filter({ hasText: 'Welcome! Login Successfully' }), [
        page.locator('.site-header'),
        page.locator('h1'),
      ])
    }
    await expect(
      page.getByText(/No AI model is connected: the offline drafter arranges your own words into a narrative, without AI/),
    ).toBeVisible()
    await expect(page.getByText('ask the person who runs this site to connect one')).toBeVisible()
    const generate = page.getByRole('button', { name: 'Generate Impact Narrative' })
    expect((await generate.boundingBox())!.y).toBeLessThan((await outputBox(page).boundingBox())!.y)

    await fillNarrativeForm(page)
    await generate.click()
    const toast = page.getByRole('status').filter({ hasText: 'Narrative generated successfully!' })
    await expect(toast).toBeVisible({ timeout: 30_000 })
    await expectClearOf(page, toast, [
      page.getByText(/^\d+ words \(target 300-400\)$/),
      page.getByRole('heading', { name: 'Generated Impact Narrative' }),
    ])

    const id = new URL(page.url()).searchParams.get('narrative')
    await page.getByRole('link', { name: 'Open it' }).click()
    await expect(page).toHaveURL(`${origin}/admin/narratives/${id}`)
  })
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the form waits for the whole narrative and shows it', async ({ page }) => {
    await signInNewUser(page)
    await fillNarrativeForm(page)
    await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
    await expect(page).toHaveURL(/\/admin\/narratives\/\w+$/, { timeout: 30_000 })
    await expect(page.getByRole('heading', { name: 'Narrative Details' })).toBeVisible()
    await expect(page.getByText('When the river flooded the valley')).toBeVisible()
    await expect(page.getByText('Narrative generated successfully!')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Download Narrative' })).toHaveAttribute('href', /\/docx$/)
    await page.goto('/dashboard')
    await expect(quota(page)).toHaveText('9 narratives left today')
  })

  test('missing required fields are reported by the server', async ({ page }) => {
    await signInNewUser(page)
    // The browser's own checks stop an empty form first; take them away to see the server's answer.
    await expect(page.getByLabel(/^Organization Name/)).toHaveAttribute('required', '')
    await page.locator('form [required]').evaluateAll((inputs) => inputs.forEach((input) => input.removeAttribute('required')))
    await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
    await expect(page.getByText('Organization Name is required')).toBeVisible()
    await expect(page.locator('#narrative-error')).toHaveText('Please fill in all required fields to generate a complete narrative')
    await expect(
      page.getByRole('alert').filter({ hasText: 'Please fill in all required fields to generate a complete narrative' }),
    ).toBeVisible()
  })
})
