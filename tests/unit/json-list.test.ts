import { describe, expect, it } from 'vitest'
import { jsonListResponse } from '~/server/http/api.server'

describe('jsonListResponse', () => {
  const long = (n: number) => ({ id: String(n), text: `"quoted" ${'é\u2028'.repeat(20_000)}`, n })

  it.each([
    ['no items', [], {}],
    ['one item and a pagination', [long(1)], { pagination: { page: 1, limit: 10, total: 1, pages: 1 } }],
    ['a page of long texts, over many steps', Array.from({ length: 30 }, (_, n) => long(n)), { pagination: { page: 2 } }],
  ])('writes the same JSON as Response.json: %s', async (_, items, rest) => {
    const response = jsonListResponse(items, (item) => ({ ...item, size: item.text.length }), rest)
    expect(response.headers.get('Content-Type')).toBe('application/json')
    const expected = JSON.stringify({ data: items.map((item) => ({ ...item, size: item.text.length })), ...rest })
    expect(await response.text()).toBe(expected)
  })

  it('gives the event loop a turn between steps of a long page', async () => {
    const items = Array.from({ length: 30 }, (_, n) => long(n))
    let turns = 0
    const ticker = setInterval(() => turns++, 0)
    const reader = jsonListResponse(items, (item) => item).body!.getReader()
    let pieces = 0
    while (!(await reader.read()).done) pieces++
    clearInterval(ticker)
    expect(pieces).toBeGreaterThan(10)
    expect(turns).toBeGreaterThan(0)
  })
})
