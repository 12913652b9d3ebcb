import fc from 'fast-check'
import { countOccurrences } from '~/server/edge/body-limit.server'

// The body watch counts a form's parts as the body arrives, in pieces cut wherever the network cuts them.
const BOUNDARY = '--x7Q'

/** How many pieces the counter reads before it refuses, or null when it never does. */
function refusedAt(pieces: Buffer[], max: number): number | null {
  const count = countOccurrences(BOUNDARY, max)
  const index = pieces.findIndex((piece) => count(piece) !== null)
  return index === -1 ? null : index
}

/** Cuts `body` at the given offsets. */
function cut(body: Buffer, offsets: number[]): Buffer[] {
  const edges = [...new Set([0, ...offsets.map((offset) => offset % (body.length + 1)), body.length])].sort((a, b) => a - b)
  return edges.slice(1).map((end, index) => body.subarray(edges[index], end))
}

/** The matches a left-to-right scan finds, none overlapping: what a parser sees. */
function truth(body: Buffer): number {
  let found = 0
  for (let at = body.indexOf(BOUNDARY); at !== -1; at = body.indexOf(BOUNDARY, at + BOUNDARY.length)) found++
  return found
}

describe('countOccurrences', () => {
  it('counts every boundary however the body is cut, a boundary split across two, three or more pieces included', () => {
    // Text made of the boundary's own letters, so near-matches and overlaps are common.
    const body = fc
      .array(fc.constantFrom('-', '-', 'x', '7', 'Q', '--x7Q', '--x7Q--', 'a'), { maxLength: 60 })
      .map((parts) => Buffer.from(parts.join('')))
    fc.assert(
      fc.property(body, fc.array(fc.nat(400), { maxLength: 30 }), (text, offsets) => {
        const pieces = cut(text, offsets)
        const parts = truth(text)
        // Never refused at its own count; refused, on the piece that completes it, one below.
        expect(refusedAt(pieces, parts)).toBeNull()
        if (parts > 0) expect(refusedAt(pieces, parts - 1)).not.toBeNull()
      }),
      { numRuns: 2000 },
    )
  })

  it('refuses on the piece that brings the count past its maximum, the pieces one byte each', () => {
    const text = Buffer.from(`a${BOUNDARY}b${BOUNDARY}${BOUNDARY}c`)
    const pieces = [...text].map((byte) => Buffer.from([byte]))
    // The second boundary's last byte is the 12th byte (index 11).
    expect(refusedAt(pieces, 1)).toBe(11)
    expect(refusedAt(pieces, 3)).toBeNull()
  })
})
