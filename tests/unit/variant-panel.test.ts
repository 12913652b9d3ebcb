import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { VariantPanel, type VariantView } from '~/components/variant-panel'

// What the owner reads on the narrative's page: a variant written from an earlier text says so in words.

const VARIANT: VariantView = {
  id: 'v1',
  format: 'pitch',
  limit: { unit: 'words', max: 50 },
  text: 'Harvest Table Food Bank served 38,000 people in 2023.',
  createdAt: new Date('2026-11-28T10:00:00Z'),
  claims: [],
  current: true,
}

function render(variants: VariantView[], variantsLeft: number | null = 3) {
  const Page = () =>
    createElement(VariantPanel, {
      basePath: '/admin/narratives/n1',
      variants,
      live: null,
      liveLimit: null,
      variantsLeft,
      lastResult: undefined,
    })
  const Stub = createRoutesStub([{ path: '/admin/narratives/n1', Component: Page }])
  return renderToStaticMarkup(createElement(Stub, { initialEntries: ['/admin/narratives/n1'] }))
}

describe('the variants on a narrative’s page', () => {
  it('says nothing of its source while the variant fits the text as it is', () => {
    expect(render([VARIANT])).not.toContain('Out of date')
  })

  it('marks a variant written from an earlier text, in words, and says how to bring it up to date', () => {
    const html = render([{ ...VARIANT, current: false }])
    expect(html).toContain('<strong>Out of date:</strong> written from an earlier text of the narrative, which has been edited since.')
    expect(html).toContain('Write it again above to fit the text as it is now.')
  })

  it('says what a variant costs: one of the day’s answers and variants, apart from the narratives, or nothing offline', () => {
    expect(render([])).toContain('Each uses one of today&#x27;s answers and variants (3 left); your narratives are counted apart.')
    expect(render([], null)).toContain('Written offline from your own words, it uses none of your daily allowance.')
  })

  it('offers no variant once the day’s are used up, and always offers one offline', () => {
    const button = (html: string) => html.match(/<button type="submit"[^>]*>Write variant<\/button>/)?.[0]
    expect(button(render([], 0))).toContain('disabled')
    expect(button(render([], null))).not.toContain('disabled')
    expect(button(render([], 1))).not.toContain('disabled')
  })

  it('points an out-of-date answer to its question’s own button below', () => {
    const html = render([{ ...VARIANT, format: 'question', question: 'What will change?', current: false }])
    expect(html).toContain('Write the answer again below')
  })
})
