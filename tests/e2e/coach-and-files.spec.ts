import fs from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { createNarrative, field, registerUser, signIn } from './helpers'

// The evidence coach beside the form's impact fields, Copy text on a narrative, and the PDF beside the
// Word file: with JavaScript and without (docs/decisions/032 and 033).

const OFFLINE = 'http://localhost:3301'
const METRICS = '61,000 people served\nAttendance up 18% in 2024\nServed hundreds of families'

const coach = (page: Page) => page.getByRole('complementary', { name: 'Evidence coach' })

async function newUser(page: Page, origin = OFFLINE) {
  const user = await registerUser(undefined, undefined, origin)
  await signIn(page, user.email, user.password, origin === OFFLINE ? origin : '')
  return user
}

test.describe('with JavaScript', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('the coach reads the figures beside the fields as they are typed, and never stops a generation', async ({ page }) => {
    await newUser(page)
    await page.goto(`${OFFLINE}/dashboard`)
    const metrics = field(page, 'Impact Metrics and Achievements')
    await metrics.fill('61,000 people served\nServed hundreds of families')
    const panel = coach(page)
    await expect(panel.getByRole('list', { name: 'Your impact figures' }).getByRole('paragraph').first()).toHaveText(
      'Output 61,000 people served',
    )
    await expect(panel).toContainText('No period or year Found: “61,000”.')
    await expect(panel).toContainText('“61,000 people served, in [which year or period?]”')
    await expect(panel).toContainText('A vague quantity Found: “hundreds of”.')
    await expect(panel).toContainText('No outcome, only activity counts')
    // Beside the fields on a wide screen.
    const [beside, box] = [await metrics.boundingBox(), await panel.boundingBox()]
    expect(box!.x).toBeGreaterThan(beside!.x + beside!.width)
    await expect(page.getByRole('button', { name: 'Generate Impact Narrative' })).toBeEnabled()
    // An outcome typed takes that question away, and a change asks what it is measured against.
    await metrics.fill('61,000 people served in 2024\nAttendance up 18% in 2024')
    await expect(panel).not.toContainText('No outcome, only activity counts')
    await expect(panel.getByText('Outcome', { exact: true })).toBeVisible()
    await expect(panel).toContainText('A change with nothing to compare it with Found: “up 18%”.')
  })

  test('with many figures, what the form as a whole lacks is in sight at the top of the coach', async ({ page }) => {
    await newUser(page)
    await page.goto(`${OFFLINE}/dashboard`)
    const counts = Array.from({ length: 12 }, (_, i) => `${(i + 2) * 150} meals served at site ${i + 1} in 2024`)
    await field(page, 'Impact Metrics and Achievements').fill(counts.join('\n'))
    const panel = coach(page)
    await expect(panel.getByRole('list', { name: 'Your impact figures' }).getByRole('listitem')).toHaveCount(12)
    const across = panel.getByRole('heading', { name: 'Across the form' })
    await expect(across).toBeInViewport()
    await expect(panel).toContainText('No outcome, only activity counts')
    // It comes before the figures, line by line: the panel's own scroll hides only those.
    const [first, lineByLine] = [await across.boundingBox(), await panel.getByRole('heading', { name: 'Line by line' }).boundingBox()]
    expect(first!.y).toBeLessThan(lineByLine!.y)
  })

  test('a model, when one is configured, adds its own remarks under its name', async ({ page }) => {
    await newUser(page, 'http://localhost:3300')
    await page.goto('/dashboard')
    await field(page, 'Impact Metrics and Achievements').fill(METRICS)
    await page.getByRole('button', { name: /^Ask .+ for a second opinion$/ }).click()
    const opinion = coach(page).getByRole('region', { name: /^Second opinion from / })
    // The model's answer streams in: as long as a generation may take on a busy machine.
    await expect(opinion).toBeVisible({ timeout: 30_000 })
    await expect(opinion).toContainText('not checked by the rules above')
    await expect(opinion.getByRole('listitem').first()).toBeVisible()
  })

  test('copies the narrative’s text and downloads it as a PDF', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: OFFLINE })
    const { token } = await newUser(page)
    const id = await createNarrative(token, {}, OFFLINE)
    await page.goto(`${OFFLINE}/admin/narratives/${id}`)
    await page.getByRole('button', { name: 'Copy text' }).click()
    await expect(page.getByText('Copied to the clipboard.')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'Every week, Harvest Table Food Bank feeds families across Travis County.\n\nA second paragraph.',
    )
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download as PDF' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^Harvest-Table-Food-Bank-Impact-Narrative-[A-Za-z]+-\d{1,2}-\d{4}\.pdf$/)
    expect(
      fs
        .readFileSync((await file.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
    await expect(page.getByText('PDF downloaded successfully!')).toBeVisible()
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('“Check my evidence” sends the form and shows the coach’s questions, the typed fields kept', async ({ page }) => {
    await newUser(page)
    await page.goto(`${OFFLINE}/dashboard`)
    await field(page, 'Impact Metrics and Achievements').fill(METRICS)
    await field(page, 'Organization Name').fill('Valley Pantry')
    await page.getByRole('button', { name: 'Check my evidence' }).click()
    // The answer opens at the coach, not at the top of a long form.
    await expect(page).toHaveURL(/#evidence-coach$/)
    await expect(coach(page)).toBeInViewport()
    await expect(coach(page)).toContainText('No period or year Found: “61,000”.')
    await expect(coach(page)).toContainText('A vague quantity Found: “hundreds of”.')
    await expect(field(page, 'Impact Metrics and Achievements')).toHaveValue(METRICS)
    await expect(field(page, 'Organization Name')).toHaveValue('Valley Pantry')
    await expect(page.getByText('is required')).toHaveCount(0)
  })

  test('the narrative’s page names what the offline draft left out for want of room, and why a short draft is short', async ({ page }) => {
    await newUser(page)
    const results = Array.from(
      { length: 40 },
      (_, i) => `In ${1990 + i} our volunteers planted ${120 + i} native oak seedlings along the eroded banks of the Mill River.`,
    )
    await generateOffline(page, results.join('\n'))
    await expect(page.getByText('Not in this text: these items of your inputs did not fit in 400 words.')).toBeVisible()
    await expect(
      page
        .getByRole('listitem')
        .filter({ hasText: /^Result: “In \d{4} our volunteers planted/ })
        .first(),
    ).toBeVisible()

    await generateOffline(page, 'In 2024 we planted 120 oaks.')
    await expect(page.getByText(/^This draft is \d+ words: the offline drafter writes only what your inputs say/)).toBeVisible()
    await expect(page.getByText('Not in this text:')).toHaveCount(0)
  })

  test('downloads the narrative as a PDF from a plain link, and offers no Copy button it cannot run', async ({ page }) => {
    const { token } = await newUser(page)
    const id = await createNarrative(token, {}, OFFLINE)
    await page.goto(`${OFFLINE}/admin/narratives/${id}`)
    await expect(page.getByRole('button', { name: 'Copy text' })).toHaveCount(0)
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download as PDF' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/\.pdf$/)
    expect(
      fs
        .readFileSync((await file.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
  })
})

/** Generates with the offline drafter through the plain form, which waits and opens the saved narrative. */
async function generateOffline(page: Page, impactMetrics: string) {
  await page.goto(`${OFFLINE}/dashboard`)
  for (const [label, value] of Object.entries({
    'Organization Name': 'Mill River Trust',
    'Primary Contact Name': 'Sam Okafor',
    'Primary Contact Email': 'sam@millriver.example.org',
    'Mission Statement': 'To restore the banks of the Mill River.',
    'Key Programs and Services': 'Tree planting with volunteers.',
    'Impact Metrics and Achievements': impactMetrics,
  }))
    await field(page, label).fill(value)
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
  await expect(page).toHaveURL(/\/admin\/narratives\/\w+$/, { timeout: 30_000 })
}
