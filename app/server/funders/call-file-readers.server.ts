import { Turns } from '~/server/platform/turns.server'

// Where files are read (docs/decisions/031): a few at once, one place per person, so an account with many files waits on itself.

/** Files read at once (the machine's cores are the generations' too), and how many people may wait. */
const READS_AT_ONCE = 2
const WAITING_MAX = 8

export type PlaceRefusal = 'yours' | 'busy' | 'gone'

/** Everyone with a file being read or waiting. */
const people = new Set<string>()
const readers = new Turns(READS_AT_ONCE)

/** A place to read `person`'s file; call `release` once the reading ends, however it ends. It passes on when `ended` settles. */
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
