import { expect, type Page } from '@playwright/test'

/**
 * Floating layers that cover the page by design: a layer is checked on its own, and what it covers
 * beneath it is no fault. While a dialog is open, only the dialog is checked: the rest is inert.
 */
const LAYERS = ['.toaster', '.user-menu-panel']

/**
 * The page holds its shape as people see it, whatever a screen reader or axe makes of it:
 * - nothing makes the page wider than the viewport, and nothing visible starts or ends beyond its edges;
 * - no visible control or run of text overlaps another (an element and what it contains are not an overlap);
 * - no text or control is cut off by a box that does not scroll (an ellipsis included), or that scrolls
 *   but no keyboard can scroll (it takes no focus, nor does what it hides);
 * - every control is at least 24 by 24 CSS px, or meets an exception of WCAG 2.2's 2.5.8 (a link inline in a
 *   sentence, or one spaced so that a 24 px circle on it meets no other target nor another's circle).
 * Hidden from sight is not checked: display none, visibility hidden, opacity 0, clipped to 1 px
 * (visually hidden text), and what a scrolling box holds outside its view.
 */
export async function expectLayoutHolds(page: Page, state: string) {
  expect.soft(await layoutProblems(page), `${state}: layout at ${page.viewportSize()?.width} px`).toEqual([])
}

/** What breaks the rules above on the page as it is now, one sentence each. */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(findLayoutProblems, LAYERS)
}

// Runs in the page: everything it uses is declared inside it.
function findLayoutProblems(layerSelectors: string[]): string[] {
  type Box = { left: number; top: number; right: number; bottom: number }
  type Item = { node: Node; owner: Element; box: Box; layer: Element | null; what: string }
  const TOLERANCE = 1 // px: sub-pixel rounding where boxes touch
  const TARGET = 24
  const INTERACTIVE = [
    'a[href]',
    'button',
    'input:not([type="hidden"])',
    'select',
    'textarea',
    'summary',
    '[role="button"]',
    '[role="link"]',
    '[role="checkbox"]',
    '[role="radio"]',
    '[role="tab"]',
    '[role="menuitem"]',
    '[tabindex]:not([tabindex="-1"])',
  ].join(',')
  const problems: string[] = []
  const viewport = document.documentElement.clientWidth
  // Measured from the top of the page, where the sticky header covers nothing; the reader's place is kept.
  const [scrolledX, scrolledY] = [window.scrollX, window.scrollY]
  window.scrollTo({ left: 0, top: 0, behavior: 'instant' })

  const pageWidth = document.documentElement.scrollWidth
  if (pageWidth > viewport) problems.push(`the page is ${pageWidth} px wide in a ${viewport} px viewport`)

  const scope: Element = document.querySelector('dialog[open]') ?? document.body
  const layers = layerSelectors.join(',')
  const layerOf = (element: Element) => element.closest(layers)

  const width = (box: Box) => box.right - box.left
  const height = (box: Box) => box.bottom - box.top
  const intersect = (a: Box, b: Box): Box => ({
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  })
  const shows = (box: Box) => width(box) > TOLERANCE && height(box) > TOLERANCE

  function describe(element: Element) {
    const name = element.getAttribute('aria-label') ?? (element as HTMLElement).innerText ?? ''
    const text = name.replace(/\s+/g, ' ').trim().slice(0, 40)
    const className = typeof element.className === 'string' ? element.className.trim().split(/\s+/)[0] : ''
    return `${element.tagName.toLowerCase()}${className ? `.${className}` : ''}${text ? ` "${text}"` : ''}`
  }

  /**
   * What shows of a box once the ancestors that clip it have cut it: the containing-block chain from
   * `from` up (an absolutely positioned box escapes the unpositioned ones, a fixed one all of them).
   * `cutBy` is the first box that clips it without scrolling; null when hidden from sight by `clip`.
   */
  function visiblePart(from: Element | null, position: string, box: Box, focusable: boolean): { box: Box; cutBy?: Element } | null {
    let cutBy: Element | undefined
    for (let element = from; element && element !== document.documentElement; element = element.parentElement) {
      if (position === 'fixed') break
      const style = getComputedStyle(element)
      const containing = style.position !== 'static' || style.transform !== 'none'
      if (position === 'absolute' && !containing) continue
      if (style.clipPath !== 'none' || (style.clip !== 'auto' && /absolute|fixed/.test(style.position))) return null
      const clipsX = style.overflowX !== 'visible'
      const clipsY = style.overflowY !== 'visible'
      if (clipsX || clipsY) {
        const outer = element.getBoundingClientRect()
        const left = outer.left + element.clientLeft
        const top = outer.top + element.clientTop
        const inner = { left, top, right: left + element.clientWidth, bottom: top + element.clientHeight }
        const clipped = intersect(box, {
          left: clipsX ? inner.left : -Infinity,
          right: clipsX ? inner.right : Infinity,
          top: clipsY ? inner.top : -Infinity,
          bottom: clipsY ? inner.bottom : Infinity,
        })
        const cut = width(clipped) < width(box) - TOLERANCE || height(clipped) < height(box) - TOLERANCE
        // A box that scrolls shows the rest on demand, if a keyboard can scroll it too: the box takes focus
        // itself, or what it hides does (focus scrolls it into view).
        const scrolls = (clipsX && /auto|scroll/.test(style.overflowX)) || (clipsY && /auto|scroll/.test(style.overflowY))
        const reachable = scrolls && (focusable || (element as HTMLElement).tabIndex >= 0)
        if (cut && !reachable && !cutBy) cutBy = element
        box = clipped
      }
      position = /absolute|fixed/.test(style.position) ? style.position : 'static'
    }
    return { box, cutBy }
  }

  const items: Item[] = []
  const targets: { element: Element; box: Box }[] = []
  /** Adds what shows of one box of a control or a text; false when none of it shows. */
  function add(node: Node, owner: Element, position: string, from: Element | null, rect: DOMRect, what: string) {
    const focusable = !!owner.closest(INTERACTIVE)
    const seen = visiblePart(from, position, rect, focusable)
    if (!seen) return false
    if (seen.cutBy) problems.push(`${what} is cut off by ${seen.cutBy === owner ? 'its own box' : describe(seen.cutBy)}`)
    if (!shows(seen.box)) return false
    if (seen.box.left < -TOLERANCE || seen.box.right > viewport + TOLERANCE) problems.push(`${what} goes beyond the viewport's edge`)
    items.push({ node, owner, box: seen.box, layer: layerOf(owner), what })
    return true
  }

  for (const element of scope.querySelectorAll(INTERACTIVE)) {
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue
    const style = getComputedStyle(element)
    if (style.clipPath !== 'none' || (style.clip !== 'auto' && /absolute|fixed/.test(style.position))) continue
    // An inline link that wraps is one box per line, not the rectangle around them.
    const fragments = [...element.getClientRects()].map((rect) =>
      add(element, element, style.position, element.parentElement, rect, describe(element)),
    )
    if (fragments.includes(true)) targets.push({ element, box: element.getBoundingClientRect() })
  }

  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT)
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const parent = text.parentElement
    if (!parent || !text.textContent?.trim()) continue
    if (parent.closest('script, style, noscript, template, textarea, select, option, title')) continue
    if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue
    if (/rgba\(.*, 0\)$|transparent/.test(getComputedStyle(parent).color)) continue
    const range = document.createRange()
    range.selectNodeContents(text)
    const what = `"${text.textContent.replace(/\s+/g, ' ').trim().slice(0, 40)}" (${describe(parent).split(' ')[0]})`
    // Line by line: the box of a wrapped text is an L, not its bounding rectangle.
    for (const line of range.getClientRects()) add(text, parent, 'static', parent, line, what)
  }

  // Overlaps, swept top to bottom; one report per pair of elements.
  items.sort((a, b) => a.box.top - b.box.top)
  const reported = new Set<string>()
  const ids = new Map<Node, number>()
  const id = (node: Node) => ids.get(node) ?? (ids.set(node, ids.size), ids.size - 1)
  for (const [index, a] of items.entries()) {
    for (let next = index + 1; next < items.length; next++) {
      const b = items[next]
      if (b.box.top >= a.box.bottom - TOLERANCE) break
      if (a.node === b.node || a.node.contains(b.node) || b.node.contains(a.node) || a.layer !== b.layer) continue
      if (!shows(intersect(a.box, b.box))) continue
      const key = [id(a.owner), id(b.owner)].sort().join()
      if (reported.has(key)) continue
      reported.add(key)
      problems.push(`${a.what} overlaps ${b.what}`)
    }
  }

  // Target size (WCAG 2.5.8): 24 by 24, or inline in a sentence, or spaced.
  const center = (box: Box) => ({ x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 })
  const small = targets.filter(({ box }) => width(box) < TARGET - 0.05 || height(box) < TARGET - 0.05)
  for (const target of small) {
    const { element, box } = target
    if (getComputedStyle(element).display === 'inline') {
      let block = element.parentElement
      while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement
      if ((block?.textContent ?? '').trim().length > (element.textContent ?? '').trim().length) continue
    }
    const c = center(box)
    const near = targets.find((other) => {
      if (other === target || other.element.contains(element) || element.contains(other.element)) return false
      if (small.includes(other)) {
        const o = center(other.box)
        if (Math.hypot(c.x - o.x, c.y - o.y) < TARGET) return true
      }
      const dx = Math.max(other.box.left - c.x, 0, c.x - other.box.right)
      const dy = Math.max(other.box.top - c.y, 0, c.y - other.box.bottom)
      return Math.hypot(dx, dy) < TARGET / 2
    })
    if (near)
      problems.push(
        `${describe(element)} is ${Math.round(width(box))}×${Math.round(height(box))} px, and ${describe(near.element)} is too close for the spacing exception`,
      )
  }
  window.scrollTo({ left: scrolledX, top: scrolledY, behavior: 'instant' })
  return problems
}
