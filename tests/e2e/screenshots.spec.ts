import { expect, test, type Page } from '@playwright/test'
import { SCREENSHOT_CLOCK, SIGNED_IN, type ScreenshotIds } from './screenshot-app'

// Each main page at a desktop and a phone width, compared with its picture in docs/screenshots: a page
// that changes by accident fails here, and one that changes on purpose is refreshed there by
// `npm run screenshots`. The pictures are the baselines, so the docs cannot fall behind the app.
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]

type Shot = { name: string; path: (ids: ScreenshotIds) => string; before?: (page: Page) => Promise<unknown> }
const pageShot = (name: string, path: string, before?: Shot['before']): Shot => ({ name, path: () => path, before })
const narrativeShot = (name: string, suffix: string, before?: Shot['before']): Shot => ({
  name,
  path: ({ narrative }) => `/admin/narratives/${narrative}${suffix}`,
  before,
})

const SHOTS: Record<'visitor' | 'member' | 'admin', Shot[]> = {
  visitor: [
    pageShot('login', '/login'),
    pageShot('signup', '/signup'),
    pageShot('forgot-password', '/forgot-password'),
    pageShot('terms', '/terms'),
    pageShot('not-found', '/resources/no-such-thing'),
  ],
  member: [
    pageShot('dashboard', '/dashboard'),
    { name: 'dashboard-written', path: ({ narrative }) => `/dashboard?narrative=${narrative}` },
    pageShot('narratives', '/admin/narratives'),
    narrativeShot('narrative', ''),
    narrativeShot('narrative-inputs', '', (shown) => shown.locator('.inputs-disclosure > summary').click()),
    narrativeShot('narrative-edit', '?edit=1'),
    narrativeShot('narrative-delete', '/delete'),
    pageShot('funders', '/funders'),
    { name: 'funder', path: ({ funder }) => `/funders/${funder}` },
    { name: 'narrative-for-funder', path: ({ forFunder }) => `/admin/narratives/${forFunder}` },
    pageShot('account', '/account'),
  ],
  admin: [pageShot('users', '/users'), pageShot('narratives-admin', '/admin/narratives')],
}

for (const size of WIDTHS) {
  for (const [who, shots] of Object.entries(SHOTS)) {
    test.describe(`${who} at ${size.width} px`, () => {
      test.use({
        viewport: { width: size.width, height: size.height },
        storageState: who === 'visitor' ? { cookies: [], origins: [] } : SIGNED_IN[who as 'member' | 'admin'],
      })

      for (const shot of shots) {
        test(shot.name, async ({ page }) => {
          await page.clock.setFixedTime(SCREENSHOT_CLOCK)
          await page.goto(shot.path(JSON.parse(process.env.SCREENSHOT_IDS!) as ScreenshotIds))
          await shot.before?.(page)
          // From the top, where the sticky header belongs in a picture of the whole page, and with
          // nothing hovered.
          await page.evaluate(() => window.scrollTo(0, 0))
          await page.mouse.move(0, 0)
          await expect(page).toHaveScreenshot(`${shot.name}-${size.name}.png`, {
            fullPage: true,
            // A busy machine takes seconds to shoot a long page twice over (until two shots agree).
            timeout: 20_000,
            // Random by design, so hidden under a bar: a narrative's id and an error page's request id
            // (both in a monospace font: the same width whatever their characters), and the calendar's
            // address (signed with the person's id), whose box is as wide as the page allows.
            mask: [page.locator('.meta-footer code'), page.locator('#request-id'), page.locator('#calendar-url')],
            maskColor: '#d1d5db',
          })
        })
      }
    })
  }
}
