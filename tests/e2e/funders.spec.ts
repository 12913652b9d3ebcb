import fs from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { createBrief, field, openHydrated, registerUser, signIn } from './helpers'

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

  // Workforce development is not this organisation's work: removed. Food access is: added. Enter in a
  // field presses Save, never a priority's move buttons (they belong to forms of their own).
  await page.getByLabel('Remove priority 3').press('Space')
  await field(page, 'Add priorities').fill('Food access in rural towns')
  await field(page, 'Priority 1').press('Enter')
  await expect(field(page, 'Priority 3')).toHaveValue('Food access in rural towns')
  await expect(field(page, 'Add priorities')).toHaveValue('')
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

/** The values of the priority fields, in order. */
function priorityValues(page: Page) {
  return page.getByLabel(/^Priority \d+( \*)?$/).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))
}

const ADDED = ['Food access in rural towns', 'Young people’s mental health', 'Digital inclusion for older people']

test('adds three priorities at once, one a line, and moves one up by keyboard, keeping the focus on it', async ({ page }) => {
  const { email, password, token } = await registerUser(undefined, undefined, OFFLINE)
  const id = await createBrief(token, OFFLINE)
  await signIn(page, email, password, OFFLINE)
  await openHydrated(page, `${OFFLINE}/funders/${id}`)
  const read = await priorityValues(page)
  expect(read.length).toBeGreaterThan(1)

  // Three lines, with spaces around one and a blank line between: three priorities, in order, after those read.
  await field(page, 'Add priorities').fill(`${ADDED[0]}\n   ${ADDED[1]}  \n\n${ADDED[2]}`)
  await page.getByRole('button', { name: 'Save changes' }).press('Enter')
  await expect(page.getByRole('status').filter({ hasText: 'Funder brief saved.' })).toBeVisible()
  await expect.poll(() => priorityValues(page)).toEqual([...read, ...ADDED])
  await expect(field(page, 'Add priorities')).toHaveValue('')
  const last = read.length + ADDED.length
  await expect(page.getByRole('button', { name: `Move down: “${ADDED[2]}”` })).toHaveCount(0)
  await expect(page.getByRole('button', { name: `Move up: “${read[0]}”` })).toHaveCount(0)

  // The last moves up a place: saved at once, and the focus stays on its button, now one row higher.
  const moveUp = page.getByRole('button', { name: `Move up: “${ADDED[2]}”` })
  await moveUp.focus()
  await moveUp.press('Enter')
  await expect(page.getByRole('status').filter({ hasText: `it is now priority ${last - 1} of ${last}` })).toBeVisible()
  await expect(field(page, `Priority ${last - 1}`)).toHaveValue(ADDED[2])
  await expect(field(page, `Priority ${last}`)).toHaveValue(ADDED[1])
  await expect(page.getByRole('button', { name: `Move up: “${ADDED[2]}”` })).toBeFocused()
  await expect(page.getByRole('button', { name: `Move down: “${ADDED[1]}”` })).toHaveCount(0)

  // Saved: the order holds when the page is opened again.
  await page.reload()
  expect(await priorityValues(page)).toEqual([...read, ADDED[0], ADDED[2], ADDED[1]])
})

test('a move waits for unsaved changes, which it would lose', async ({ page }) => {
  const { email, password, token } = await registerUser(undefined, undefined, OFFLINE)
  const id = await createBrief(token, OFFLINE)
  await signIn(page, email, password, OFFLINE)
  await openHydrated(page, `${OFFLINE}/funders/${id}`)
  const read = await priorityValues(page)
  await field(page, 'Priority 1').fill('Edited, not yet saved')
  await page.getByRole('button', { name: `Move up: “${read[1]}”` }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Save your changes first' })).toBeVisible()
  await expect(field(page, 'Priority 1')).toHaveValue('Edited, not yet saved')
  expect(await priorityValues(page)).toEqual(['Edited, not yet saved', ...read.slice(1)])
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('a toast at the foot of the screen never covers the field being filled in', async ({ page }) => {
    const { email, password, token } = await registerUser()
    await signIn(page, email, password)
    await page.goto(`/funders/${await createBrief(token)}`)
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Funder brief saved.' })).toBeVisible()
    // "Smallest grant" just above the screen's foot, where the toast is; Tab reaches it from the field before.
    const smallest = field(page, 'Smallest grant')
    await smallest.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().bottom - window.innerHeight + 20))
    await field(page, 'Word limit of the narrative').focus()
    await page.keyboard.press('Tab')
    await expect(smallest).toBeFocused()
    const toasts = page.locator('.toaster ol')
    await expect(async () => {
      // Still there: once it has gone, nothing is left to cover the field.
      await expect(page.getByRole('status').filter({ hasText: 'Funder brief saved.' })).toBeVisible({ timeout: 0 })
      const [box, toast] = [(await smallest.boundingBox())!, (await toasts.boundingBox())!]
      expect(box.y + box.height).toBeLessThanOrEqual(toast.y)
    }).toPass({ timeout: 2000 })
  })
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

  test('priorities are added several at once and moved up by plain forms', async ({ page }) => {
    const { email, password, token } = await registerUser(undefined, undefined, OFFLINE)
    const id = await createBrief(token, OFFLINE)
    await signIn(page, email, password, OFFLINE)
    await page.goto(`${OFFLINE}/funders/${id}`)
    const read = await priorityValues(page)
    await field(page, 'Add priorities').fill(ADDED.join('\n'))
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByText('Funder brief saved.')).toBeVisible()
    expect(await priorityValues(page)).toEqual([...read, ...ADDED])
    const last = read.length + ADDED.length
    await page.getByRole('button', { name: `Move up: “${ADDED[2]}”` }).click()
    await expect(page).toHaveURL(new RegExp(`/funders/${id}#priority-${last - 1}$`))
    await expect(page.getByText(`it is now priority ${last - 1} of ${last}`)).toBeVisible()
    expect(await priorityValues(page)).toEqual([...read, ADDED[0], ADDED[2], ADDED[1]])
  })
})
