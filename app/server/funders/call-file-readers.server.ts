import { Turns } from '~/server/platform/turns.server'

// Where files are read (docs/decisions/031): a few at once, and one file a person, so an account with many files waits on itself.

/** Files read at once (the machine's cores are the generations' too), and how many people may wait. */
const READS_AT_ONCE = 2
const WAITING_MAX = 8

export type PlaceRefusal = 'yours' | 'busy' | 'gone'

/** Everyone with a file on its way in, waiting or being read. */
const people = new Set<string>()
const readers = new Turns(READS_AT_ONCE)

export type Hold = { release: () => void }

/** `person`'s one file at a time; null while another of theirs is held. */
export function holdFor(person: string): Hold | null {
  if (people.has(person)) return null
  people.add(person)
  let held = true
  return {
    release: () => {
      if (held) people.delete(person)
      held = false
    },
  }
}

/** A place to read a file (`queued` told if it waits); `release` it once the reading ends, however: it passes on when `ended` settles. */
export async function takeReaderPlace(
  signal?: AbortSignal,
  queued = () => {},
): Promise<{ release: (ended?: Promise<unknown>) => void } | { refused: Exclude<PlaceRefusal, 'yours'> }> {
  if (signal?.aborted) return { refused: 'gone' }
  if (readers.full && readers.waiting >= WAITING_MAX) return { refused: 'busy' }
  if (readers.full) queued()
  if ((await readers.take(signal)) !== 'yours') return { refused: 'gone' }
  let released = false
  return {
    release: (ended = Promise.resolve()) => {
      if (released) return
      released = true
      void ended.finally(() => readers.release())
    },
  }
}
