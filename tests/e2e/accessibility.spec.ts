import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { ADMIN, apiToken, createBrief, createNarrative, field, fillNarrativeForm, registerUser, signIn } from './helpers'
import { expectLayoutHolds } from './layout'

// Every page and state, at a desktop, a tablet and a phone width: axe-core (WCAG 2.0, 2.1 and 2.2, A and
// AA), and the layout as people see it (./layout.ts). A serious or critical axe violation fails the run;
// lesser ones are printed so they are seen.
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'phone', width: 390, height: 844 },
]
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

async function expectAccessible(page: Page, state: string) {
  // Both judge the page from its top: scrolled, the sticky header covers what passes under it, which
  // axe would count against those targets' size. The reader's place is kept for the steps that follow.
  const scrolled = await page.evaluate(() => [window.scrollX, window.scrollY])
  await page.evaluate(() => window.scrollTo({ left: 0, top: 0, behavior: 'instant' }))
  await expectLayoutHolds(page, state)
  // Legacy mode runs axe in the page itself: the default opens a blank page for each run to join frames'
  // results, half of each run's time here (1.5 s to 0.8 s on a small page), and our pages have no frames.
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).setLegacyMode().analyze()
  await page.evaluate(([left, top]) => window.scrollTo({ left, top, behavior: 'instant' }), scrolled)
  const summary = violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  if (violations.length > blocking.length) console.log(`${state}, lesser axe findings:\n  ${summary.join('\n  ')}`)
  expect
    .soft(
      blocking.map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`),
      state,
    )
    .toEqual([])
}

for (const size of WIDTHS) {
  test.describe(`axe-core and layout at ${size.width} px`, () => {
    // axe judges colours as the page rests: caught mid-animation (the delete dialog fades in over 160 ms),
    // text at part opacity reads as low contrast. Reduced motion turns the entrances off.
    test.use({ viewport: { width: size.width, height: size.height }, contextOptions: { reducedMotion: 'reduce' } })
    // Each state costs a layout check and an axe run, seconds apiece on a busy machine.
    test.describe.configure({ timeout: 120_000 })

    test('public pages, and the forms with their errors', async ({ page }) => {
      expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true)
      for (const path of [
        '/',
        '/login',
        '/signup',
        '/forgot-password',
        '/terms',
        '/privacy-policy',
        '/copyright-policy',
        '/email-consent',
      ]) {
        await page.goto(path)
        await expectAccessible(page, path)
      }
      await page.goto('/reset-password?token=nope')
      await expectAccessible(page, 'an invalid reset link')
      await page.goto('/welcome?token=nope')
      await expectAccessible(page, 'an invalid invitation')
      await page.goto('/resources/nothing-here')
      await expectAccessible(page, 'the 404 page')

      await page.goto('/login')
      await field(page, 'Email').fill('nobody@e2e.test')
      await field(page, 'Password').fill('not a password')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page.getByText('Invalid email or password').first()).toBeVisible()
      await expectAccessible(page, 'a failed sign-in')

      await page.goto('/signup')
      await page.getByRole('button', { name: 'Create Account' }).click()
      await expect(page.getByText('Email is required')).toBeVisible()
      await expectAccessible(page, 'sign-up with every field in error')

      await page.goto('/forgot-password')
      await field(page, 'Email').fill('nobody@e2e.test')
      await page.getByRole('button', { name: 'Send reset link' }).click()
      await expect(page.getByText('Email sent successfully!')).toBeVisible()
      await expectAccessible(page, 'a reset link sent')
    })

    test("a member's dashboard: empty, in error, being written, written, failed; the menu; the list, empty", async ({ page }) => {
      const { email, password } = await registerUser()
      await signIn(page, email, password)
      await expectAccessible(page, 'the dashboard')
      await page.getByRole('link', { name: 'Narratives', exact: true }).click()
      await expect(page.getByRole('heading', { name: 'No narratives yet' })).toBeVisible()
      await expectAccessible(page, 'the list, empty')

      await page.goto('/dashboard')
      await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
      await expectAccessible(page, 'the dashboard with a required-fields error')
      // A slow stream from the fake model (40 pieces, 300 ms apart), so the page can be checked while the text is
      // being written: a first token merely late left a second to see it, and a busy page missed it.
      await fillNarrativeForm(page, { missionSuffix: '[[fake:slow]][[fake:pieces=40]]' })
      await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
      await expect(page.getByRole('region', { name: 'Narrative text' })).toHaveAttribute('aria-busy', 'true')
      await expectAccessible(page, 'the dashboard while the narrative is written')
      await expect(page.getByRole('heading', { name: 'Generated Impact Narrative' })).toBeVisible({ timeout: 30_000 })
      await expectAccessible(page, 'the dashboard after a generation')

      await page.locator('.user-menu summary').click()
      await expectAccessible(page, 'the account menu open')
      await page.keyboard.press('Escape')

      await page.goto('/dashboard')
      await fillNarrativeForm(page, { missionSuffix: '[[fake:401]]' })
      await page.getByRole('button', { name: 'Generate Impact Narrative' }).click()
      await expect(page.getByText('An error occurred while generating the narrative. Please try again.').first()).toBeVisible({
        timeout: 30_000,
      })
      await expectAccessible(page, 'the dashboard after a failed generation')
    })

    test('the evidence coach beside the fields: its questions, and a second opinion', async ({ page }) => {
      const { email, password } = await registerUser()
      await signIn(page, email, password)
      await field(page, 'Impact Metrics and Achievements').fill(
        '61,000 people served\nAttendance up 18% in 2024\nServed hundreds of families',
      )
      const coach = page.getByRole('complementary', { name: 'Evidence coach' })
      await expect(coach).toContainText('A vague quantity')
      await expectAccessible(page, 'the evidence coach with its questions')
      await page.getByRole('button', { name: /^Ask .+ for a second opinion$/ }).click()
      await expect(
        coach
          .getByRole('region', { name: /^Second opinion from / })
          .getByRole('listitem')
          .first(),
      ).toBeVisible({ timeout: 30_000 })
      await expectAccessible(page, 'the evidence coach with a second opinion')
    })

    test("a member's narrative: shown, its inputs, edited, compared with a version, its delete page; a missing one", async ({ page }) => {
      const { email, password } = await registerUser()
      const token = await apiToken(email, password)
      const id = await createNarrative(token)
      await signIn(page, email, password)

      await page.goto(`/admin/narratives/${id}`)
      await expectAccessible(page, 'a narrative')
      await page.locator('.inputs-disclosure > summary').click()
      await expectAccessible(page, "a narrative with its organisation's inputs shown")
      await page.goto(`/admin/narratives/${id}?edit=1`)
      await expectAccessible(page, 'a narrative being edited')
      await page.getByRole('textbox', { name: /^Generated Narrative/ }).fill('A shorter narrative for Harvest Table Food Bank.')
      await page.getByRole('button', { name: 'Save Changes' }).click()
      await expect(page.getByRole('link', { name: 'Edit Narrative' })).toBeVisible()
      await expectAccessible(page, 'a narrative just saved')
      await page.locator('.version-list a').last().click()
      await expectAccessible(page, 'a narrative compared with a version')
      await page.goto(`/admin/narratives/${id}/delete`)
      await expectAccessible(page, 'the delete page without JavaScript')
      await page.goto('/admin/narratives/no-such-narrative')
      await expectAccessible(page, 'a narrative that does not exist')
    })

    test("a member's narrative with a variant; the list, and a deletion; the account", async ({ page }) => {
      const { email, password } = await registerUser()
      const id = await createNarrative(await apiToken(email, password))
      await signIn(page, email, password)

      // A variant: written, announced, and focus back on its panel once the box it streamed in is gone.
      await page.goto(`/admin/narratives/${id}`)
      const panel = page.getByRole('region', { name: 'Fit to a limit' })
      await panel.getByRole('button', { name: 'Write variant' }).click()
      await expect(panel.getByRole('status')).toHaveText(/^Variant written: \d+ words\.$/, { timeout: 30_000 })
      await expect(panel.getByRole('heading', { name: 'Fit to a limit' })).toBeFocused()
      await expectAccessible(page, 'a narrative with a variant just written')

      await page.goto('/admin/narratives')
      await expectAccessible(page, 'the list')
      await page.getByRole('link', { name: 'Delete Narrative' }).first().click()
      await expect(page.getByRole('dialog')).toBeVisible()
      await expectAccessible(page, 'the delete dialog')
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
      await expect(page.getByRole('status').filter({ hasText: 'Narrative deleted successfully!' })).toBeVisible()
      await expectAccessible(page, 'the list with a deletion just announced')

      await page.goto('/account')
      await expectAccessible(page, 'the account page')
      await page.getByRole('button', { name: 'Delete my account' }).click()
      await expectAccessible(page, 'the account page with a refused deletion')
    })

    test('funder briefs: the list, a refused file, a brief, a narrative written for one, the filtered list', async ({ page }) => {
      const { email, password, token } = await registerUser()
      await signIn(page, email, password)
      await page.goto('/funders')
      await expectAccessible(page, 'the funder briefs, none yet')
      await field(page, "Funder's name").fill('Lane County Community Foundation')
      await page
        .getByLabel('Or the call as a file')
        .setInputFiles({ name: 'call.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') })
      await page.getByRole('button', { name: 'Save and read the call' }).click()
      await expect(page.getByText('This file is named .pdf but is not a PDF.')).toBeVisible()
      await expectAccessible(page, 'a refused file')
      const brief = await createBrief(token)
      await page.goto('/funders')
      await expectAccessible(page, 'the funder briefs')
      await page.goto(`/funders/${brief}`)
      await expectAccessible(page, 'a funder brief')
      await page.goto(`/dashboard?funder=${brief}`)
      await expectAccessible(page, 'the dashboard with a brief chosen')
      const id = await createNarrative(token, { funderId: brief, amountRequested: '$25,000' })
      await page.goto(`/admin/narratives/${id}`)
      await expect(page.getByRole('heading', { name: 'How it answers Lane County Community Foundation' })).toBeVisible()
      await expectAccessible(page, 'a narrative written for a brief')
      await page.goto(`/admin/narratives/${id}/application`)
      await expectAccessible(page, 'the application')
      await page.getByRole('textbox', { name: 'Answer to question 1' }).fill('Too long. '.repeat(150))
      await page.getByRole('button', { name: 'Save answer to question 1' }).click()
      await expect(page.locator('#answer-0-error')).toBeVisible()
      await expectAccessible(page, 'an answer refused over its limit')
      await page.goto(`/admin/narratives?funder=${brief}&sort=deadline&q=food`)
      await expectAccessible(page, 'the list searched and filtered')
    })

    test("the administrator's pages, and every signed-in page under a long name and the admin menu", async ({ page }) => {
      await signIn(page, ADMIN.email, ADMIN.password)
      for (const path of ['/dashboard', '/funders', '/account']) {
        await page.goto(path)
        await expectAccessible(page, `${path} for an administrator`)
      }
      // Every control of the header in sight as the page opens, none in a strip that scrolls.
      const width = page.viewportSize()!.width
      for (const control of await page.locator('.site-header a, .site-header summary').all()) {
        const box = (await control.boundingBox())!
        expect(box.x, await control.innerText()).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width, await control.innerText()).toBeLessThanOrEqual(width)
        expect((await control.evaluate((element) => element.closest('ul')?.scrollWidth ?? 0)) <= width).toBe(true)
      }
      await page.locator('.user-menu summary').click()
      await expect(page.locator('.user-menu-who')).toContainText(`${ADMIN.firstName} ${ADMIN.lastName}`)
      await expectAccessible(page, "an administrator's account menu open")
      await page.keyboard.press('Escape')
      await page.goto('/users')
      await expectAccessible(page, 'Manage Users')
      await page.getByRole('button', { name: 'Send invitation' }).click()
      await expect(page.getByText('Email is required')).toBeVisible()
      await expectAccessible(page, 'Manage Users with an invitation in error')
      await page.goto('/admin/narratives')
      await expectAccessible(page, "the administrator's list")
    })
  })
}

test.describe('focus, by keyboard', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('Shift+Tab up the dashboard never leaves the focused field under the sticky header', async ({ page }) => {
    const { email, password } = await registerUser()
    await signIn(page, email, password)
    await page.getByRole('button', { name: 'Generate Impact Narrative' }).focus()
    const header = await page.locator('.site-header').boundingBox()
    for (const label of ['Website', 'Organization Name']) {
      const target = field(page, label)
      while (!(await target.evaluate((element) => element === document.activeElement))) await page.keyboard.press('Shift+Tab')
      const box = (await target.boundingBox())!
      expect(box.y, label).toBeGreaterThanOrEqual(header!.y + header!.height)
    }
  })

  test('Escape closes the account menu and returns to its button', async ({ page }) => {
    const { email, password } = await registerUser()
    await signIn(page, email, password)
    const menu = page.locator('.user-menu')
    await menu.locator('summary').focus()
    await page.keyboard.press('Enter')
    await expect(menu).toHaveAttribute('open', '')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Escape')
    await expect(menu).not.toHaveAttribute('open')
    await expect(menu.locator('summary')).toBeFocused()

    // Following a link in it leaves it closed on the next page, with focus on that page's title.
    await page.keyboard.press('Enter')
    await menu.getByRole('link', { name: 'Account' }).press('Enter')
    await expect(page).toHaveURL(/\/account$/)
    await expect(menu).not.toHaveAttribute('open')
    await expect(page.locator('main h1')).toBeFocused()
  })

  test('opening a narrative focuses its heading; deleting one from the list focuses the list', async ({ page }) => {
    const { email, password } = await registerUser()
    const token = await apiToken(email, password)
    await createNarrative(token)
    await createNarrative(token)
    await signIn(page, email, password)
    await page.goto('/admin/narratives')
    await page.getByRole('link', { name: 'View Narrative' }).first().press('Enter')
    await expect(page.getByRole('heading', { name: 'Narrative Details' })).toBeFocused()
    await page.goBack()
    await page.getByRole('link', { name: 'Delete Narrative' }).first().press('Enter')
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).press('Enter')
    await expect(page.getByRole('heading', { name: 'Narratives' })).toBeFocused()
    await expect(page.getByRole('status').filter({ hasText: 'Narrative deleted successfully!' })).toBeVisible()
  })
})
