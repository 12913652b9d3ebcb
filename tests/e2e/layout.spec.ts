import { expect, test, type Page } from '@playwright/test'
import { layoutProblems } from './layout'

// The layout check itself, on small pages made to break one rule each: it must see the fault, and
// nothing on the page that holds.
test.use({ viewport: { width: 390, height: 844 } })

async function problemsOf(page: Page, body: string) {
  await page.setContent(`<!doctype html><html><head><style>
    body { margin: 0; padding: 16px; font: 16px/1.5 sans-serif }
    button { width: 44px; height: 44px }
    .visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap }
  </style></head><body>${body}</body></html>`)
  return layoutProblems(page)
}

const WIDE_TABLE = '<table style="width: 800px"><tr><th>Company</th><th>Tone</th><th>Created</th><th>Actions</th></tr></table>'

test('a page that holds: text, an inline link, controls, hidden text, a wide table in a scroll region', async ({ page }) => {
  const body = `
    <header style="position: sticky; top: 0; background: white"><a href="/" style="display: inline-block; padding: 8px">Home</a></header>
    <h1>A title <span class="visually-hidden">for screen readers only</span></h1>
    <p>A sentence with <a href="/terms">a small link</a> in it, and <strong>bold</strong> words.</p>
    <p><label for="email">Email</label><input id="email" style="display: block; width: 100%; height: 44px; box-sizing: border-box"></p>
    <p><button>One</button> <button>Two</button></p>
    <div role="region" aria-label="Accounts" tabindex="0" style="overflow-x: auto">${WIDE_TABLE}</div>
    <p style="visibility: hidden; margin-top: -60px">Hidden text over the buttons</p>
    <div style="height: 2000px"></div>`
  expect(await problemsOf(page, body)).toEqual([])
  // Scrolled, the sticky header passes over the content: not a fault.
  await page.evaluate(() => window.scrollTo(0, 120))
  expect(await layoutProblems(page)).toEqual([])
})

test('controls and text that overlap', async ({ page }) => {
  const problems = await problemsOf(
    page,
    `<div style="position: relative; height: 60px">
       <a href="/" style="position: absolute; left: 0; top: 0; font-size: 24px">Impact Narrative Studio</a>
       <button style="position: absolute; left: 200px; top: 0; width: 120px">Mia Member</button>
     </div>
     <p>Some text</p><button style="display: block; margin-top: -40px">Up</button>`,
  )
  expect(problems).toEqual(['a "Impact Narrative Studio" overlaps button "Mia Member"', 'button "Up" overlaps "Some text" (p)'])
})

test('text cut off by a box that does not scroll, an ellipsis included', async ({ page }) => {
  const problems = await problemsOf(
    page,
    `<p style="width: 80px; overflow: hidden; white-space: nowrap">A line too long for its box</p>
     <p><span style="display: inline-block; max-width: 60px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap">Maria Delgado</span></p>`,
  )
  expect(problems).toEqual([
    '"A line too long for its box" (p) is cut off by its own box',
    '"Maria Delgado" (span) is cut off by its own box',
  ])
})

test('a page wider than the viewport', async ({ page }) => {
  expect(await problemsOf(page, '<div style="width: 500px">Wide</div>')).toEqual(['the page is 516 px wide in a 390 px viewport'])
})

test('a box that scrolls sideways but takes no focus hides what it cuts off from the keyboard', async ({ page }) => {
  const problems = await problemsOf(page, `<div style="overflow-x: auto">${WIDE_TABLE}</div>`)
  expect(problems.length).toBeGreaterThan(0)
  for (const problem of problems) expect(problem).toMatch(/^"(Created|Actions)" \(th\) is cut off by div/)
  // What it cuts off may be a control, which focus scrolls into view.
  const controls = await problemsOf(
    page,
    `<div style="overflow-x: auto"><div style="width: 800px; text-align: right"><button>Go</button></div></div>`,
  )
  expect(controls).toEqual([])
})

test('targets under 24 by 24 px: too close to another, or spaced, or inline in a sentence', async ({ page }) => {
  const close = await problemsOf(
    page,
    '<p><button style="width: 20px; height: 20px">a</button><button style="width: 20px; height: 20px">b</button></p>',
  )
  expect(close).toEqual([
    'button "a" is 20×20 px, and button "b" is too close for the spacing exception',
    'button "b" is 20×20 px, and button "a" is too close for the spacing exception',
  ])
  const spaced = await problemsOf(
    page,
    '<p><button style="width: 20px; height: 20px; margin-right: 10px">a</button><button style="width: 20px; height: 20px">b</button></p>',
  )
  expect(spaced).toEqual([])
  const alone = await problemsOf(
    page,
    '<p style="font-size: 12px"><a href="/a">A</a></p><p style="font-size: 12px; margin-top: -14px"><a href="/b">B</a></p>',
  )
  expect(alone).toContainEqual(expect.stringMatching(/^a "A" is \d+×\d+ px, and a "B" is too close/))
  const inline = await problemsOf(
    page,
    '<p style="font-size: 12px; line-height: 1">Read <a href="/a">this</a> and <a href="/b">that</a>.</p>',
  )
  expect(inline).toEqual([])
})

test('a floating layer covers the page by design; an open dialog is checked alone', async ({ page }) => {
  const toaster = await problemsOf(
    page,
    '<p>Text under a toast</p><div class="toaster" style="position: fixed; top: 10px; left: 10px; background: white">Saved!</div>',
  )
  expect(toaster).toEqual([])
  const dialog = await problemsOf(
    page,
    `<p>Text under the dialog</p><dialog open style="top: 0; margin: 0"><p>Delete it?</p><button>Delete</button><button style="margin-left: -30px">Keep</button></dialog>`,
  )
  expect(dialog).toEqual(['button "Delete" overlaps button "Keep"'])
})
