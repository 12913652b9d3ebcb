import { createAssembler, deriveBusKeys, MESSAGE_LIFETIME_MS, openPayload, toPayloads as signedPayloads } from '~/server/cluster/bus.server'
import type { BusMessage } from '~/server/cluster/contract.server'

// NOTIFY refuses a payload of 8,000 bytes or more: a relayed replay (a whole narrative, in any script)
// goes in parts, which the receiver puts back together.
const NOTIFY_MAX_BYTES = 8000

const KEYS = deriveBusKeys(['newest-secret', 'older-secret'])
const toPayloads = (message: BusMessage, from: string, number: () => number) =>
  signedPayloads(message, from, number, { keys: KEYS, at: Date.now() })

/** The envelope of a genuine payload. */
function opened(payload: string) {
  const envelope = openPayload(payload, KEYS)
  if (typeof envelope === 'string') throw new Error(`refused: ${envelope}`)
  return envelope
}

function numbered() {
  let n = 0
  return () => ++n
}

it('splits a long message into payloads NOTIFY takes, which put back together give the message', () => {
  // Three bytes a UTF-16 unit (CJK), four-byte characters, quotes and new lines: the costliest text to send.
  const text = '漢字'.repeat(5_000) + '😀"\n'.repeat(3_000) + 'ünïcödé '.repeat(500)
  const message: BusMessage = { type: 'relay', sub: 's', events: [{ type: 'delta', seq: 9, text }] }
  const payloads = toPayloads(message, 'replica-a', numbered())
  expect(payloads.length).toBeGreaterThan(1)
  for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(NOTIFY_MAX_BYTES)
  const assemble = createAssembler()
  const results = payloads.map((payload) => assemble(opened(payload)))
  expect(results.slice(0, -1)).toEqual(Array(payloads.length - 1).fill(null))
  expect(results.at(-1)).toEqual(message)
})

it('keeps two senders apart, and numbers every payload so that none is taken for a duplicate', () => {
  const next = numbered()
  const long: BusMessage = { type: 'relay', text: 'x'.repeat(5_000) }
  const short: BusMessage = { type: 'stop', id: 'n1', userId: 'u1' }
  const fromA = toPayloads(long, 'a', next)
  const fromB = toPayloads(short, 'b', next)
  const again = toPayloads(short, 'b', next)
  expect(new Set([...fromA, ...fromB, ...again]).size).toBe(fromA.length + fromB.length + again.length)
  const assemble = createAssembler()
  // B's message arrives between A's parts, as notifications of two senders may interleave.
  const received = [fromA[0], fromB[0], ...fromA.slice(1)].map((payload) => assemble(opened(payload)))
  expect(received.filter(Boolean)).toEqual([short, long])
})

it('drops a message that lost a part, and reads the same sender’s next one whole', () => {
  const next = numbered()
  const long = toPayloads({ type: 'relay', text: 'y'.repeat(6_000) }, 'a', next)
  const stop: BusMessage = { type: 'stop', id: 'n1', userId: 'u1' }
  const after = toPayloads(stop, 'a', next)
  expect(long.length).toBeGreaterThan(2)
  const assemble = createAssembler()
  // The second part was lost while the connection was down.
  const received = [long[0], ...long.slice(2), ...after].map((payload) => assemble(opened(payload)))
  expect(received.filter(Boolean)).toEqual([stop])
})

describe('signatures', () => {
  const stopUser: BusMessage = { type: 'stop-user', userId: 'u1' }

  it('refuses a payload unsigned, signed with another key, or altered after signing', () => {
    const [genuine] = toPayloads(stopUser, 'a', numbered())
    const body = genuine.slice(genuine.indexOf('.') + 1)
    expect(openPayload(body, KEYS)).toBe('unsigned')
    const [forged] = signedPayloads(stopUser, 'a', numbered(), { keys: deriveBusKeys(['a guess']), at: Date.now() })
    expect(openPayload(forged, KEYS)).toBe('bad-signature')
    expect(openPayload(genuine.replace('u1', 'u2'), KEYS)).toBe('bad-signature')
    expect(openPayload(`${genuine.slice(0, 10)}.${body}`, KEYS)).toBe('bad-signature')
  })

  it('accepts a payload signed with an older secret of the rotation list, and signs with the newest', () => {
    const newestOnly = deriveBusKeys(['newest-secret'])
    const olderOnly = deriveBusKeys(['older-secret'])
    const [byOlder] = signedPayloads(stopUser, 'a', numbered(), { keys: olderOnly, at: Date.now() })
    expect(openPayload(byOlder, KEYS)).toMatchObject({ from: 'a' })
    const [byBoth] = toPayloads(stopUser, 'a', numbered())
    expect(openPayload(byBoth, newestOnly)).toMatchObject({ from: 'a' })
  })

  it('refuses a message older than its lifetime, and a genuine payload sent again', () => {
    const at = Date.now()
    const [payload] = signedPayloads(stopUser, 'a', numbered(), { keys: KEYS, at })
    expect(openPayload(payload, KEYS, at + MESSAGE_LIFETIME_MS)).toBe('expired')
    const assemble = createAssembler()
    expect(assemble(opened(payload))).toEqual(stopUser)
    expect(assemble(opened(payload))).toBe('replayed')
  })
})
