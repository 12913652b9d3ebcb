import fs from 'node:fs'
import { expect, test } from '@playwright/test'
import { createBrief, field, registerUser, signIn } from './helpers'

// Writing for a funder, as a grant writer does it: the call added, what was understood corrected, the
// brief chosen on the dashboard, and the alignment read beside the narrative. The offline drafter writes.

const OFFLINE = 'http://localhost:3301'
const CORPORATE = fs.readFileSync('tests/fixtures/funders/corporate-giving.txt', 'utf8')

test('by keyboard: paste a call, correct what was understood, write for it, read the alignment', async ({ page }) => {
  const { email, password } = await registerUser(undefined, undefined, OFFLINE)
  await signIn(page, email, password, OFFLINE)
  await page.goto(`${OFFLINE}/funders`)
  await field(page, "Funder's name").fill('Acme Outfitters')
  await field(page, "The call's text").fill(CORPORATE)
  await field(page, "Funder's name").press('Enter')
  await expect(page).toHaveURL(/\/funders\/\w+$/)
  await expect(page.getByRole('status').filter({ hasText: 'Funder brief saved.' })).toBeVisible()
  await expect(field(page, 'Priority 1')).toHaveValue(
    'Youth access to the outdoors, especially for young people from underserved communities',
  )
  await expect(field(page, 'Word limit of the narrative')).toHaveValue('300')

  // Workforce development is not this organisation's work: removed. Food access is: added.
  await page.getByLabel('Remove priority 3').press('Space')
  await field(page, 'Add a priority').fill('Food access in rural towns')
  await field(page, 'Add a priority').press('Enter')
  await expect(field(page, 'Priority 3')).toHaveValue('Food access in rural towns')
  await expect(page.getByLabel('Priority 4')).toHaveCount(0)

  await page.getByRole('link', { name: 'Write a narrative for this funder' }).press('Enter')
  await expect(page).toHaveURL(/\/dashboard\?funder=/)
  await expect(field(page, 'Funder brief')).toHaveValue(/\w+/)
  await field(page, 'Amount requested').fill('$12,000')
  for (const [label, value] of Object.entries({
    'Organization Name': 'Trailhead Youth Outdoors',
    'Primary Contact Name': 'Jo Rivera',
    'Primary Contact Email': 'jo@trailhead.example.org',
    'Mission Statement': 'To give young people from underserved neighborhoods time outdoors.',
    'Key Programs and Services': 'Weekend hiking trips for teenagers, and a summer camp in the national forest.',
    'Impact Metrics and Achievements': 'In 2024, 420 young people took part in 96 trips.',
  }))
    await field(page, label).fill(value)
  await page.getByRole('button', { name: 'Generate Impact Narrative' }).press('Enter')
  await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('region', { name: 'Narrative text' })).toContainText('Trailhead Youth Outdoors')
  await page.getByRole('link', { name: 'Open it' }).press('Enter')

  await expect(page.getByText('Written for Acme Outfitters, asking $12,000')).toBeVisible()
  const alignment = page.getByRole('region', { name: 'How it answers Acme Outfitters' })
  await expect(alignment.getByText(/^\d of 3 priorities answered from your inputs/)).toBeVisible()
  await expect(alignment.getByRole('heading', { name: /^Youth access to the outdoors.*Answered from your inputs$/ })).toBeVisible()
  await expect(alignment.getByRole('heading', { name: /^Food access in rural towns.*Not answered$/ })).toBeVisible()
  await expect(alignment.getByText(/The call asks about “Food access in rural towns”; your inputs say nothing about it/)).toBeVisible()
})

test('saves made one after another each show what was saved, however close together', async ({ page }) => {
  const { email, password, token } = await registerUser()
  const id = await createBrief(token)
  await signIn(page, email, password)
  await page.goto(`/funders/${id}`)
  const priorities = await page
    .getByLabel(/^Priority \d+( \*)?$/)
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))
  // Four saves in a few seconds: some land within one second of each other, as a quick writer's do.
  for (const next of priorities.slice(1)) {
    await page.getByLabel('Remove priority 1').check()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(field(page, 'Priority 1')).toHaveValue(next)
    await expect(page.getByLabel('Remove priority 1')).not.toBeChecked()
  }
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test("a call's Word file uploads as a plain form; a file that is not what it says is refused with what was typed kept", async ({
    page,
  }) => {
    const { email, password } = await registerUser(undefined, undefined, OFFLINE)
    await signIn(page, email, password, OFFLINE)
    await page.goto(`${OFFLINE}/funders`)
    await field(page, "Funder's name").fill('Lane County Community Foundation')
    await field(page, "The call's text").fill('Notes I typed about the call.')
    await page
      .getByLabel('Or the call as a file')
      .setInputFiles({ name: 'call.pdf', mimeType: 'application/pdf', buffer: Buffer.from('plain text') })
    await page.getByRole('button', { name: 'Save and read the call' }).click()
    await expect(page.getByText('This file is named .pdf but is not a PDF.')).toBeVisible()
    await expect(field(page, "Funder's name")).toHaveValue('Lane County Community Foundation')
    await expect(field(page, "The call's text")).toHaveValue('Notes I typed about the call.')

    await page.getByLabel('Or the call as a file').setInputFiles('tests/fixtures/funders/community-foundation.docx')
    await page.getByRole('button', { name: 'Save and read the call' }).click()
    await expect(page).toHaveURL(/\/funders\/\w+$/)
    await expect(field(page, 'Priority 4')).toHaveValue('Sustainability: a credible plan to continue the work after the grant ends')
    await expect(field(page, 'Question 2: most words')).toHaveValue('200')
    await expect(field(page, 'Deadline')).toHaveValue('2027-03-13')
  })
})
