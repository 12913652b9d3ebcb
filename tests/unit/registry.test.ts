import { createInProcessRegistry } from '~/server/generation/job/registry.server'
import { type GenerationEvent } from '~/server/generation/job/contract.server'

function follow(registry: ReturnType<typeof createInProcessRegistry>, afterSeq: number) {
  const events: GenerationEvent[] = []
  registry.subscribe('g1', afterSeq, (event) => events.push(event))
  return events
}

describe('the in-process registry, when a variant starts over', () => {
  it('tells a follower who saw the discarded attempt to start over, then replays the new one', () => {
    const registry = createInProcessRegistry()
    registry.open('g1', { userId: 'u1', abort: () => {} })
    registry.append('g1', 'Too ')
    registry.append('g1', 'long.')
    const live = follow(registry, 0)
    registry.restart('g1', 'The first draft was over the limit.')
    registry.append('g1', 'Short.')

    expect(live).toEqual([
      { type: 'delta', seq: 2, text: 'Too long.' },
      { type: 'restart', reason: 'The first draft was over the limit.' },
      { type: 'delta', seq: 3, text: 'Short.' },
    ])
    // Reconnecting with Last-Event-ID 2 (the old attempt): start over, then the new text, numbered on.
    expect(follow(registry, 2)).toEqual([
      { type: 'restart', reason: 'The first draft was over the limit.' },
      { type: 'delta', seq: 3, text: 'Short.' },
    ])
    // Already following the new attempt: only what comes after.
    registry.append('g1', ' Done.')
    expect(follow(registry, 3)).toEqual([{ type: 'delta', seq: 4, text: ' Done.' }])
    // A new follower sees only the new attempt.
    expect(follow(registry, 0)).toEqual([{ type: 'delta', seq: 4, text: 'Short. Done.' }])
  })
})
