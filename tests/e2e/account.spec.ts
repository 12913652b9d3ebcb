import { expect, type Locator, type Page, test } from '@playwright/test'
import { createNarrative, field, openHydrated, registerUser, signIn } from './helpers'

// The account page (docs/decisions/022): a journey by keyboard alone (Tab and Enter, typing into
// the fields, never a click), and deleting an account in a browser without JavaScript.
// (@axe-core/playwright is not installed here: the axe checks of every page are added with it.)

const NEW_PASSWORD = 'second password 2'

/** Presses Tab (Shift+Tab when it lies behind) until `target` has the focus, as a keyboard user moves. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let i = 0; i < limit; i++) {
    const where = await target.evaluate((element) => {
      const active = document.activeElement
      if (element === active) return 'here'
      return active && active !== document.body && element.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING
        ? 'behind'
        : 'ahead'
    })
    if (where === 'here') return
    await page.keyboard.press(where === 'behind' ? 'Shift+Tab' : 'Tab')
  }
  throw new Error(`Tab never reached ${target}`)
}

async function typeInto(page: Page, target: Locator, text: string) {
  await tabTo(page, target)
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type(text)
}

function toast(page: Page, text: string | RegExp) {
  return page.getByRole('status').filter({ hasText: text })
}

test('by keyboard alone: open Account from the menu, change the name, change the password', async ({ page }) => {
  const { email, password } = await registerUser()
  // Signing in: the email field has the focus when the page opens.
  await page.goto('/login')
  await page.keyboard.type(email)
  await page.keyboard.press('Tab')
  await page.keyboard.type(password)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/dashboard$/)

  // The account menu opens with Enter, and its Account link is next in the Tab order.
  const menu = page.locator('summary').filter({ hasText: 'Mia Member' })
  await tabTo(page, menu)
  await page.keyboard.press('Enter')
  const accountLink = page.getByRole('link', { name: 'Account', exact: true })
  await expect(accountLink).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(accountLink).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/account$/)
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Email' }).getByText(email)).toBeVisible()

  // The name: both fields, then the form's own button.
  await typeInto(page, field(page, 'First name'), 'Grace')
  await typeInto(page, field(page, 'Last name'), 'Hopper')
  await tabTo(page, page.getByRole('button', { name: 'Save name' }))
  await page.keyboard.press('Enter')
  await expect(toast(page, 'Your name is saved.')).toBeVisible()
  await expect(page.locator('summary')).toContainText('Grace Hopper')

  // A wrong current password: the error is announced with the field it belongs to.
  const passwordSection = page.getByRole('region', { name: 'Password' })
  const current = passwordSection.getByLabel(/^Current password/)
  await typeInto(page, current, 'not my password')
  await typeInto(page, passwordSection.getByLabel(/^New password/), NEW_PASSWORD)
  await typeInto(page, passwordSection.getByLabel(/^Confirm new password/), NEW_PASSWORD)
  await page.keyboard.press('Enter')
  await expect(current).toHaveAttribute('aria-invalid', 'true')
  await expect(current).toHaveAccessibleDescription(/Your current password is not right/)

  // The right one: Enter in the last field sends the form.
  await typeInto(page, current, password)
  await typeInto(page, passwordSection.getByLabel(/^New password/), NEW_PASSWORD)
  await typeInto(page, passwordSection.getByLabel(/^Confirm new password/), NEW_PASSWORD)
  await page.keyboard.press('Enter')
  await expect(toast(page, 'Your password is changed.')).toBeVisible()
  // The form is emptied, and the keyboard is where it was.
  await expect(current).toHaveValue('')
  await expect(passwordSection.getByLabel(/^Confirm new password/)).toBeFocused()
  // This browser stays signed in; the new password is the one that works.
  await page.reload()
  await expect(page).toHaveURL(/\/account$/)
  const signIns = await Promise.all(
    [password, NEW_PASSWORD].map((attempt) =>
      page.request.post('/auth/login', { data: { email, password: attempt } }).then((response) => response.status()),
    ),
  )
  expect(signIns).toEqual([401, 200])
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('deletes the account after the password confirms it, and lands on a page that says so', async ({ page }) => {
    const { email, password, token } = await registerUser()
    await createNarrative(token)
    await signIn(page, email, password)
    await page.goto('/account')
    const deletion = page.getByRole('region', { name: 'Delete account' })
    const confirm = deletion.getByLabel(/^Password/)

    await confirm.fill('not my password')
    await deletion.getByRole('button', { name: 'Delete my account' }).click()
    await expect(confirm).toHaveAttribute('aria-invalid', 'true')
    await expect(confirm).toHaveAccessibleDescription(/Your current password is not right/)

    await confirm.fill(password)
    await deletion.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByText('Your account and all its data have been deleted.')).toBeVisible()
    // Signed out, and the account is gone with its token.
    await page.goto('/account')
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/)
    expect((await page.request.post('/auth/login', { data: { email, password } })).status()).toBe(401)
    expect((await page.request.get('/auth/profile', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401)
  })
})

test('English (UK) chosen on the account page: the form spells it so, and the list dates day first', async ({ page }) => {
  const { email, password, token } = await registerUser()
  await createNarrative(token)
  await signIn(page, email, password)
  await page.goto('/account')
  await page.getByLabel('Language', { exact: true }).selectOption('en-GB')
  await page.getByRole('button', { name: 'Save these choices' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Your language, dates, currency and paper are saved.' })).toBeVisible()

  await page.goto('/dashboard')
  await expect(page.getByLabel('Organisation Name')).toBeVisible()
  await page.goto('/admin/narratives')
  const created = page.getByRole('row').nth(1).getByRole('cell').nth(3)
  await expect(created).toHaveText(/^\d{1,2} [A-Z][a-z]+ \d{4}\b/)
})

test('the calendar address: copied from the account page, read as a calendar reads it, renewed by keyboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: 'http://localhost:3300' })
  const { email, password, token } = await registerUser()
  const brief = await page.request.post('/api/funders', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'Lane County Community Foundation', callText: 'Our priorities: food security.', deadline: '2027-03-13' },
  })
  expect(brief.status()).toBe(201)
  await createNarrative(token, { funderId: (await brief.json()).data.id })
  await signIn(page, email, password)
  await openHydrated(page, '/account')
  const section = page.getByRole('region', { name: 'Deadlines in your calendar' })
  const address = section.getByRole('textbox', { name: 'Calendar address' })
  await expect(address).toHaveAttribute('readonly', '')
  const first = await address.inputValue()
  await section.getByRole('button', { name: 'Copy address' }).click()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first)

  // A calendar sends no cookie.
  const feed = await fetch(first)
  expect(feed.headers.get('Content-Type')).toBe('text/calendar; charset=utf-8')
  const calendar = await feed.text()
  expect(calendar).toContain('DTSTART;VALUE=DATE:20270313')
  expect(calendar).toContain('SUMMARY:Deadline: Lane County Community Foundation')

  await tabTo(page, section.getByRole('button', { name: 'Renew the address' }))
  await page.keyboard.press('Enter')
  await expect(toast(page, 'Your calendar has a new address.')).toBeVisible()
  await expect(address).not.toHaveValue(first)
  expect((await fetch(first)).status).toBe(404)
  expect((await fetch(await address.inputValue())).status).toBe(200)
})
