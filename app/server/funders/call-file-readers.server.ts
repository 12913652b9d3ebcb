import { Turns } from '~/server/platform/turns.server'

// The places where files are read (docs/decisions/031): a few at once, a bounded line, one place per person, so an
// account sending many files waits on itself, never on everyone; the line is round-robin across people.

/** Files read at once (the machine's cores are the generations' too), and how many people may wait. */
const READS_AT_ONCE = 2
const WAITING_MAX = 8

export type PlaceRefusal = 'yours' | 'busy' | 'gone'

/** Everyone with a file being read or waiting. */
const people = new Set<string>()
const readers = new Turns(READS_AT_ONCE)

/**
 * A place to read `person`'s file; `release` must be called once the reading ends, however it ends. The place passes
 * on when `ended` settles: a worker's memory is given back as it ends.
 */
export async function takeReaderPlace(
  person: string,
  signal?: AbortSignal,
): Promise<{ release: (ended?: Promise<unknown>) => void } | { refused: PlaceRefusal }> {
  if (signal?.aborted) return { refused: 'gone' }
  if (people.has(person)) return { refused: 'yours' }
  if (readers.full && readers.waiting >= WAITING_MAX) return { refused: 'busy' }
  people.add(person)
  if ((await readers.take(signal)) !== 'yours') {
    people.delete(person)
    return { refused: 'gone' }
  }
  let released = false
  return {
    release: (ended = Promise.resolve()) => {
      if (released) return
      released = true
      people.delete(person)
      void ended.finally(() => readers.release())
    },
  }
}
