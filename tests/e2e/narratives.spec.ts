import crypto from 'node:crypto'
import { expect, test, type Page } from '@playwright/test'
import { ADMIN, apiToken, createNarrative, openHydrated, registerUser, signIn, uniqueEmail } from './helpers'

// The admin's list shows everyone's narratives, newest first: run this file's tests one after another
// so the eleven narratives of the pagination test cannot push another test's row off page 1.
test.describe.configure({ mode: 'default' })

const ORIGIN = 'http://localhost:3300'
const LIST = '/admin/narratives'
const EDITED = 'Edited by a person.\n\nA second paragraph, kept apart from the first.'

/** A new account and its bearer token for the token API. */
async function registerWithToken() {
  const { email, password } = await registerUser(uniqueEmail())
  return { email, password, token: await apiToken(email, password) }
}

function uniqueCompany(prefix: string) {
  return `${prefix} ${crypto.randomUUID().slice(0, 6)}`
}

/** A new user with one narrative (saved through the token API), signed in on this page. */
async function signInWithNarrative(page: Page, fields: Record<string, string> = {}) {
  const user = await registerWithToken()
  const company = fields.company ?? uniqueCompany('Harvest Table')
  const id = await createNarrative(user.token, { ...fields, company })
  await signIn(page, user.email, user.password)
  return { ...user, id, company }
}

/** A new user with a narrative written for a brief of two questions (one counting characters without spaces), signed in. */
async function signInWithApplication(page: Page) {
  const user = await registerWithToken()
  const brief = await fetch(`${ORIGIN}/api/funders`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${user.token}` },
    body: JSON.stringify({
      name: 'Lane County Community Foundation',
      callText: 'Our priorities: food security.',
      questions: [
        { text: 'What difference will the project make?', maxCharacters: 60, withoutSpaces: true },
        { text: 'How many families do you serve?', maxWords: 20 },
      ],
    }),
  })
  const funderId = ((await brief.json()) as { data: { id: string } }).data.id
  const id = await createNarrative(user.token, { funderId, generatedNarrative: 'In 2023 we served 212 families across the county.' })
  await signIn(page, user.email, user.password)
  return { id }
}

const row = (page: Page, company: string) => page.getByRole('row').filter({ hasText: company })
const toast = (page: Page, message: string) => page.getByRole('status').filter({ hasText: message })
const textarea = (page: Page) => page.getByRole('textbox', { name: 'Generated Narrative' })
const narrativeText = (page: Page) => page.locator('section[aria-labelledby="narrative-title"] > p')

test('list, view, edit, save, download, back, and delete with the dialog', async ({ page }) => {
  const { id, company } = await signInWithNarrative(page)
  await page.goto(LIST)
  await expect(page.getByRole('columnheader', { name: 'User Details' })).toHaveCount(0)
  for (const name of ['Company', 'Generated Narrative', 'Tone', 'Created', 'Actions']) {
    await expect(page.getByRole('columnheader', { name })).toBeVisible()
  }
  await expect(row(page, company)).toContainText('Every week, Harvest Table Food...')
  await expect(row(page, company)).toContainText('Conversational')
  await expect(page.getByRole('link', { name: 'Edit inputs and write again' })).toHaveAttribute('href', `/dashboard?from=${id}`)
  // Each action says what it does in sight, not by an icon alone; its full name begins with that word.
  const actions = row(page, company).getByRole('cell').last().getByRole('link')
  await expect(actions).toHaveText(['Edit inputs', 'Edit', 'View', 'Download', 'Delete'])
  for (const action of await actions.all()) {
    const [seen, name] = [await action.innerText(), await action.getAttribute('aria-label')]
    expect(name?.toLowerCase().startsWith(seen.trim().toLowerCase()), `${name} begins with ${seen}`).toBe(true)
  }

  await page.getByRole('link', { name: 'View Narrative' }).click()
  await expect(page).toHaveURL(`${LIST}/${id}`)
  await expect(page.getByRole('heading', { name: 'Narrative Details' })).toBeVisible()
  // The inputs come after the narrative, folded away.
  await expect(page.getByRole('heading', { name: 'Company Information' })).toBeHidden()
  await page.getByText('Show what it was written from').click()
  await expect(page.getByRole('heading', { name: 'Company Information' })).toBeVisible()
  const companyInformation = page.getByRole('region', { name: 'Company Information' })
  await expect(companyInformation).toContainText('Mia Member')
  await expect(companyInformation).toContainText(company)
  for (const heading of ['Mission Statement', 'Target Population', 'Geographic Focus', 'Key Activities', 'Key Achievements']) {
    await expect(page.getByRole('heading', { name: heading })).toBeVisible()
  }
  await expect(page.getByText('Not provided')).toHaveCount(4) // no target audience, geographic focus, website or success story
  await expect(page.getByText(`ID: ${id}`)).toBeVisible()
  await expect(page.getByText('Tone: Conversational')).toBeVisible()

  await page.getByRole('link', { name: 'Edit Narrative' }).click()
  await expect(page.getByText('You can edit the narrative text directly')).toBeVisible()
  await textarea(page).fill(EDITED)
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(toast(page, 'Narrative updated successfully!')).toBeVisible()
  await expect(page).toHaveURL(`${LIST}/${id}#narrative`)
  // The Save button is gone with the form: focus is on the narrative, not lost to the page.
  await expect(page.locator('#narrative')).toBeFocused()
  await expect(page.getByRole('link', { name: 'Edit Narrative' })).toBeVisible()
  // Paragraphs are kept as written (plain text in a pre-wrap block, never HTML).
  expect(await narrativeText(page).textContent()).toBe(EDITED)
  expect(await narrativeText(page).evaluate((element) => getComputedStyle(element).whiteSpace)).toBe('pre-wrap')

  const downloadPromise = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download Narrative' }).click()
  expect((await downloadPromise).suggestedFilename()).toMatch(/^Harvest-Table-.+\.docx$/)
  await expect(toast(page, 'Word document downloaded successfully!')).toBeVisible()

  await page.getByRole('link', { name: 'Back to List' }).click()
  await expect(page).toHaveURL(LIST)
  await expect(row(page, company)).toContainText('Edited by a person. A second p...')

  await page.getByRole('link', { name: 'Delete Narrative' }).click()
  const dialog = page.getByRole('dialog', { name: 'Confirm Delete' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('Are you sure you want to delete this narrative? This action cannot be undone.')
  // Which one it deletes, told apart from others for the same organisation by when, tone and opening.
  await expect(dialog.locator('dl')).toContainText(company)
  await expect(dialog.locator('dl')).toContainText('conversational tone')
  await expect(dialog.locator('dl')).toContainText('“Edited by a person. A second p...”')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(row(page, company)).toBeVisible()

  await page.getByRole('link', { name: 'Delete Narrative' }).click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(toast(page, 'Narrative deleted successfully!')).toBeVisible()
  await expect(row(page, company)).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Create your first narrative' })).toHaveAttribute('href', '/dashboard')
})

test("an ordinary user can neither see nor open, change or delete another user's narrative", async ({ page }) => {
  const owner = await registerWithToken()
  const company = uniqueCompany('Private Org')
  const id = await createNarrative(owner.token, { company })
  const other = await registerWithToken()
  await signIn(page, other.email, other.password)

  const detail = await page.goto(`${LIST}/${id}`)
  expect(detail?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Narrative not found' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Back to List' })).toBeVisible()
  expect((await page.goto(`${LIST}/${id}/delete`))?.status()).toBe(404)

  await page.goto(LIST)
  await expect(page.getByText(company)).toHaveCount(0)
  await expect(page.getByText('There are no narratives yet.', { exact: false })).toBeVisible()

  // Forged form posts: a foreign id reads as missing, and nothing changes.
  const save = await page.request.post(`${LIST}/${id}`, { form: { intent: 'save', generatedNarrative: 'Hijacked' } })
  expect(save.status()).toBe(404)
  const remove = await page.request.post(`${LIST}?index`, { form: { intent: 'delete', id } })
  expect(remove.status()).toBe(404)
  const stored = await fetch(`${ORIGIN}/api/narrative/${id}`, { headers: { Authorization: `Bearer ${owner.token}` } })
  expect(((await stored.json()) as { data: { generatedNarrative: string } }).data.generatedNarrative).toMatch(/^Every week/)
})

test('a save or delete that fails says so', async ({ page }) => {
  const { id, company, token } = await signInWithNarrative(page)
  const secondId = await createNarrative(token, { company: `${company} second` })
  const deleteThroughApi = (narrativeId: string) =>
    fetch(`${ORIGIN}/api/narrative/${narrativeId}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } })

  await openHydrated(page, LIST)
  await row(page, `${company} second`).getByRole('link', { name: 'Delete Narrative' }).click()
  expect((await deleteThroughApi(secondId)).status).toBe(200) // gone before the dialog's Delete is pressed
  await page.getByRole('dialog', { name: 'Confirm Delete' }).getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to delete narrative. Please try again.' })).toBeVisible()
  await expect(row(page, `${company} second`)).toHaveCount(0)

  await openHydrated(page, `${LIST}/${id}?edit=1`)
  expect((await deleteThroughApi(id)).status).toBe(200)
  await textarea(page).fill('Too late.')
  await page.getByRole('button', { name: 'Save Changes' }).click()
  // The toast, which outlives the form: the form's own alert says it too, until the page finds the narrative gone.
  const toasts = page.getByRole('region', { name: /^Notifications/ })
  await expect(toasts.getByRole('alert').filter({ hasText: 'Failed to update narrative. Please try again.' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Narrative not found' })).toBeVisible()

  const unknownIntent = await page.request.post(`${LIST}?index`, { form: { intent: 'archive', id } })
  expect(unknownIntent.status()).toBe(400)
})

test('moves an application through its stages by keyboard, and the list finds it by stage', async ({ page }) => {
  const { id, company, token } = await signInWithNarrative(page)
  await createNarrative(token, { company: `${company} still drafting` })
  await openHydrated(page, `${LIST}/${id}`)
  const stage = page.getByRole('region', { name: /^Stage:/ })
  await expect(stage.getByRole('heading')).toHaveText('Stage: Drafting')
  await stage.getByLabel('Move to').focus()
  await page.keyboard.press('End') // the last stage, Declined, then one up
  await page.keyboard.press('ArrowUp')
  await expect(stage.getByLabel('Move to')).toHaveValue('awarded')
  await page.keyboard.press('Tab')
  await expect(stage.getByRole('button', { name: 'Set stage' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(toast(page, 'Stage set to Awarded.')).toBeVisible()
  await expect(stage.getByRole('heading')).toHaveText('Stage: Awarded')
  await expect(stage.getByRole('list', { name: 'Stages reached' }).getByRole('listitem')).toHaveText([/^Drafting /, /^Awarded /])

  await page.goto(LIST)
  await expect(row(page, `${company} still drafting`)).toContainText('Stage: Drafting')
  await page.getByLabel('Stage').selectOption('Awarded')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/[?&]stage=awarded/)
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(row(page, company)).toContainText('Stage: Awarded')
})

test('the application: a live count under the call’s rule, an answer over it refused and kept, figures that disagree flagged, one file', async ({
  page,
}) => {
  const { id } = await signInWithApplication(page)
  await openHydrated(page, `${LIST}/${id}`)
  await page.getByRole('link', { name: 'Open the application' }).click()
  await expect(page).toHaveURL(new RegExp(`${LIST}/${id}/application$`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application to Lane County Community Foundation')

  const first = page.getByRole('textbox', { name: 'Answer to question 1' })
  // Spaces do not count here: 56 characters without them, 67 with.
  await first.fill('Fresh produce for every family that asks, all year, in Lane County.')
  await expect(page.locator('#answer-0-count')).toHaveText('56 / 60 characters without spaces')
  await first.press('End')
  await first.pressSequentially(' And more.')
  await expect(page.locator('#answer-0-count')).toHaveText('64 / 60 characters without spaces (4 over the limit)')
  await expect(page.locator('#answer-0-status')).toHaveText('The answer is over its limit.')
  await page.getByRole('button', { name: 'Save answer to question 1' }).click()
  await expect(page.locator('#answer-0-error')).toHaveText(/This answer is 64 characters without spaces: the question allows 60/)
  await expect(first).toHaveValue(/And more\.$/)
  await first.fill('Fresh produce for every family that asks, all year.')
  await page.getByRole('button', { name: 'Save answer to question 1' }).click()
  await expect(toast(page, 'Answer saved.')).toBeVisible()
  // Dismissed, so the toast seen next is the second save's, not this one still showing.
  await page
    .locator('.toast', { has: toast(page, 'Answer saved.') })
    .getByRole('button', { name: 'Dismiss notification' })
    .click()
  await expect(toast(page, 'Answer saved.')).toHaveCount(0)

  await page.getByRole('textbox', { name: 'Answer to question 2' }).fill('We served 210 families in 2023.')
  await page.getByRole('button', { name: 'Save answer to question 2' }).click()
  await expect(toast(page, 'Answer saved.')).toBeVisible()
  const flagged = page.getByRole('note', { name: 'Figures that disagree' })
  await expect(flagged).toHaveCount(2)
  await expect(flagged.first()).toContainText('Here: 210 families; the narrative: 212 families. Your inputs do not say.')
  await expect(flagged.last()).toContainText('Here: 212 families; answer 2: 210 families.')

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download as Word' }).click()
  expect((await download).suggestedFilename()).toMatch(/^Harvest-Table-Food-Bank-Application-to-Lane-County-Community-Foundation-.*\.docx$/)
})

test("the admin's list shows the User Details column with each owner's name and email", async ({ page }) => {
  const owner = await registerWithToken()
  const company = uniqueCompany('Owned Org')
  await createNarrative(owner.token, { company })
  await signIn(page, ADMIN.email, ADMIN.password)
  await page.goto(LIST)
  await expect(page.getByText('Admin area: narratives from every user')).toBeVisible()
  await expect(page.getByRole('columnheader', { name: 'User Details' })).toBeVisible()
  await expect(row(page, company)).toContainText('Mia Member')
  await expect(row(page, company)).toContainText(owner.email)
})

test('pagination: Previous, Page X of Y, Next, disabled at the ends', async ({ page }) => {
  const user = await registerWithToken()
  for (let number = 1; number <= 11; number++) {
    await createNarrative(user.token, { company: `Paged Org ${String(number).padStart(2, '0')}` })
  }
  await signIn(page, user.email, user.password)
  await page.goto(LIST)
  await expect(page.getByText('Page 1 of 2')).toBeVisible()
  await expect(page.locator('tbody tr')).toHaveCount(10)
  await expect(row(page, 'Paged Org 11')).toBeVisible() // newest first
  const previous = page.getByRole('link', { name: 'Previous' })
  await expect(previous).toHaveAttribute('aria-disabled', 'true')
  await expect(previous).not.toHaveAttribute('href')

  await page.getByRole('link', { name: 'Next' }).click()
  await expect(page).toHaveURL(`${LIST}?page=2`)
  await expect(page.getByText('Page 2 of 2')).toBeVisible()
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(row(page, 'Paged Org 01')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true')
  await expect(previous).toHaveAttribute('href', `${LIST}?page=1`)

  await page.goto(`${LIST}?page=abc`)
  await expect(page.getByText('Page 1 of 2')).toBeVisible()
  await page.goto(`${LIST}?page=99`)
  await expect(page.getByText('Page 2 of 2')).toBeVisible()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the application: an answer over its limit refused with what was typed kept, then saved, and the file', async ({ page }) => {
    const { id } = await signInWithApplication(page)
    await page.goto(`${LIST}/${id}/application`)
    const first = page.getByRole('textbox', { name: 'Answer to question 1' })
    await first.fill('Fresh produce for every family that asks, all year, in Lane County. And more.')
    await page.getByRole('button', { name: 'Save answer to question 1' }).click()
    await expect(page.locator('#answer-0-error')).toHaveText(/This answer is 64 characters without spaces: the question allows 60/)
    await expect(first).toHaveValue(/And more\.$/)
    await expect(page.locator('#answer-0-count')).toHaveText('64 / 60 characters without spaces (4 over the limit)')
    await first.fill('Fresh produce for every family that asks.')
    await page.getByRole('button', { name: 'Save answer to question 1' }).click()
    await expect(page.getByText('Answer saved.')).toBeVisible()
    await expect(first).toHaveValue('Fresh produce for every family that asks.')
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Download as PDF' }).click()
    expect((await download).suggestedFilename()).toMatch(
      /^Harvest-Table-Food-Bank-Application-to-Lane-County-Community-Foundation-.*\.pdf$/,
    )
  })

  test('list, view, edit, save, download and delete through the confirmation page', async ({ page }) => {
    const { id, company } = await signInWithNarrative(page)
    await page.goto(LIST)
    await page.getByRole('link', { name: 'View Narrative' }).click()
    await expect(page.getByRole('heading', { name: 'Narrative Details' })).toBeVisible()

    await page.getByRole('link', { name: 'Edit Narrative' }).click()
    await expect(page).toHaveURL(`${LIST}/${id}?edit=1#narrative`)
    // An empty text is refused by the server (the browser's own check taken away first).
    await textarea(page).evaluate((textarea) => textarea.removeAttribute('required'))
    await textarea(page).fill('')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(page.getByText('The narrative cannot be empty')).toBeVisible()

    await textarea(page).fill(EDITED)
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(page).toHaveURL(`${LIST}/${id}#narrative`)
    await expect(page.getByText('Narrative updated successfully!')).toBeVisible()
    expect(await narrativeText(page).textContent()).toBe(EDITED)

    const downloadPromise = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download Narrative' }).click()
    expect((await downloadPromise).suggestedFilename()).toMatch(/\.docx$/)

    await page.getByRole('link', { name: 'Back to List' }).click()
    await page.getByRole('link', { name: 'Delete Narrative' }).click()
    await expect(page).toHaveURL(`${LIST}/${id}/delete`)
    await expect(page.getByRole('heading', { name: 'Confirm Delete' })).toBeVisible()
    await expect(page.getByText('Are you sure you want to delete this narrative? This action cannot be undone.')).toBeVisible()
    const identity = page.locator('main dl')
    await expect(identity).toContainText(company)
    await expect(identity).toContainText(/Written\s*\S.*tone/)
    await expect(identity).toContainText(`“${EDITED.split(/\s+/).slice(0, 20).join(' ')}`)
    await page.getByRole('link', { name: 'Cancel' }).click()
    await expect(page).toHaveURL(LIST)
    await expect(row(page, company)).toBeVisible()

    await page.getByRole('link', { name: 'Delete Narrative' }).click()
    await page.getByRole('button', { name: 'Delete' }).click()
    await expect(page).toHaveURL(LIST)
    await expect(page.getByText('Narrative deleted successfully!')).toBeVisible()
    await expect(row(page, company)).toHaveCount(0)
  })
})
