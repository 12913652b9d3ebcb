import { narrativeFiltersOfPage, narrativeListHref, parseNarrativeFilters, parsePage } from '~/shared/list-query'

describe('the narratives list read from its address', () => {
  it('reads a page number from 1, and anything else as the first page', () => {
    expect(parsePage(null)).toBe(1)
    expect(parsePage('3')).toBe(3)
    expect(parsePage('0')).toBe(1)
    expect(parsePage('-2')).toBe(1)
    expect(parsePage('2.5')).toBe(1)
    expect(parsePage('999999999')).toBe(100_000)
  })

  it('keeps on the page what the API reads, leaving out what it would refuse', () => {
    const params = new URLSearchParams({ q: '  food  ', funder: 'f1', tone: 'angry', from: '2026-13-01', to: '2026-02-01', sort: 'newest' })
    expect(narrativeFiltersOfPage(params)).toEqual({ q: 'food', funderId: 'f1', to: '2026-02-01' })
    expect(narrativeFiltersOfPage(new URLSearchParams({ q: 'a'.repeat(150), sort: 'deadline' }))).toEqual({
      q: 'a'.repeat(100),
      sort: 'deadline',
    })
    const api = parseNarrativeFilters(new URLSearchParams({ funderId: 'f1', tone: 'angry' }))
    expect(api.success ? null : api.error.issues[0].message).toBe('tone must be one of professional, conversational, passionate, academic')
  })

  it("writes the page's address back in the form's names", () => {
    expect(narrativeListHref('/admin/narratives', { q: 'food', funderId: 'f1', sort: 'deadline' }, 2)).toBe(
      '/admin/narratives?q=food&funder=f1&sort=deadline&page=2',
    )
  })
})
