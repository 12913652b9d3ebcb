import { extractTextItems, getDocumentProxy } from 'unpdf'
import { PRODUCT_CREDIT, type NarrativeDocxOptions } from '~/server/narratives/docx.server'
import { buildNarrativePdf } from '~/server/narratives/pdf.server'

// The PDF's pages as a reader sees them (docs/decisions/033): each page's text read back with unpdf (pdf.js)
// and gathered into lines, top to bottom, so a footer is a page's last line and a heading's next line is
// what follows it on the paper.

/** Each page's lines of text, top to bottom. */
async function pagesOf(options: NarrativeDocxOptions): Promise<string[][]> {
  const { items } = await extractTextItems(await getDocumentProxy(new Uint8Array(await buildNarrativePdf(options))))
  return items.map((page) => {
    const lines = new Map<number, { x: number; str: string }[]>()
    for (const item of page.filter(({ str }) => str.trim())) {
      const y = Math.round(item.y)
      lines.set(y, [...(lines.get(y) ?? []), item])
    }
    return [...lines.entries()]
      .sort(([a], [b]) => b - a)
      .map(([, parts]) =>
        parts
          .sort((a, b) => a.x - b.x)
          .map(({ str }) => str)
          .join('')
          .trim(),
      )
  })
}

/** `count` numbered lines, one paragraph: each adds exactly one line of body text. */
function filler(count: number) {
  return Array.from({ length: count }, (_, index) => `Filler line ${index + 1}`).join('\n')
}

/** Where `line` is, as [page, line] (both from 0); it must be there exactly once. */
function find(pages: string[][], line: string): [number, number] {
  const found = pages.flatMap((lines, page) => lines.flatMap((text, at) => (text === line ? [[page, at] as [number, number]] : [])))
  expect(found, `"${line}" once`).toHaveLength(1)
  return found[0]
}

/** The heading and the first line of its text are on one page, the text straight below it. */
function expectKept(pages: string[][], heading: string, firstLine: string) {
  const [page, at] = find(pages, heading)
  expect(pages[page][at + 1], `"${heading}" on page ${page + 1} followed by its text`).toBe(firstLine)
}

describe('the PDF’s footer', () => {
  it('says “Page X of Y” on every page, as the Word file does', async () => {
    const cases: [string, number][] = [
      ['One short paragraph.', 1],
      [filler(150), 4],
      ['x'.repeat(20_000), 8],
    ]
    for (const [narrative, count] of cases) {
      const pages = await pagesOf({ narrative })
      expect(pages).toHaveLength(count)
      pages.forEach((lines, index) => {
        expect(lines.at(-1)).toBe(`Page ${index + 1} of ${count}`)
        expect(lines.filter((line) => /^Page \d+/.test(line))).toHaveLength(1)
      })
    }
  })

  it('keeps the operator’s credit and link above the page number', async () => {
    const pages = await pagesOf({ narrative: filler(100), credit: true, link: 'https://studio.example.org' })
    expect(pages.length).toBeGreaterThan(1)
    pages.forEach((lines, index) => {
      expect(lines.slice(-2)).toEqual([`${PRODUCT_CREDIT} · https://studio.example.org/`, `Page ${index + 1} of ${pages.length}`])
    })
  })
})

describe('a heading is never left at the foot of a page', () => {
  // From 30 to 49 lines of text before it, a heading comes to the foot of the first page at every height
  // that page leaves, and then past it: at some of them only the heading, or it and one line, would fit.
  const LENGTHS = Array.from({ length: 20 }, (_, index) => 30 + index)

  it('the Website and Contact Information headings keep their first line', async () => {
    let moved = 0
    for (const count of LENGTHS) {
      const pages = await pagesOf({ narrative: filler(count), contacts: 'Jane Doe\njane@example.org', website: 'https://example.org' })
      expectKept(pages, 'Contact Information', 'Jane Doe')
      expectKept(pages, 'Website', 'https://example.org')
      if (find(pages, 'Website')[1] === 0) moved++
      if (find(pages, 'Contact Information')[1] === 0) moved++
      pages.forEach((lines, index) => expect(lines.at(-1)).toBe(`Page ${index + 1} of ${pages.length}`))
    }
    // Some lengths left a heading no room for its text on the first page: it began the second instead.
    expect(moved).toBeGreaterThan(0)
  })

  it('a section’s heading keeps the first two lines of its text', async () => {
    let moved = 0
    for (const count of LENGTHS) {
      const pages = await pagesOf({
        sections: { missionStatement: filler(count), targetPopulation: 'Families in rural towns.\nSeniors living alone.\nVeterans.' },
      })
      expectKept(pages, 'Target Population', 'Families in rural towns.')
      const [page, at] = find(pages, 'Target Population')
      expect(pages[page][at + 2]).toBe('Seniors living alone.')
      if (at === 0) moved++
    }
    expect(moved).toBeGreaterThan(0)
  })
})
