/**
 * A few places, taken in arrival order: the work pool's threads and the call files' readers (docs/decisions/031
 * and 041). A place taken is handed straight to the first waiting, so no one arriving later passes them; one
 * waiting leaves the line when its client goes or when it has waited too long.
 */
export class Turns {
  private taken = 0
  private readonly line: { start: () => void }[] = []

  constructor(private readonly places: number) {}

  /** How many wait for a place. */
  get waiting() {
    return this.line.length
  }

  get full() {
    return this.taken >= this.places
  }

  /** 'yours' once a place is the caller's (it must `release()` it); 'gone' when `signal` aborted first, 'late' past `waitMs`. */
  take(signal?: AbortSignal, waitMs?: number): Promise<'yours' | 'gone' | 'late'> {
    if (signal?.aborted) return Promise.resolve('gone')
    if (!this.full && this.line.length === 0) {
      this.taken++
      return Promise.resolve('yours')
    }
    return new Promise((resolve) => {
      const place = { start: () => settle('yours') }
      const timer = waitMs === undefined ? undefined : setTimeout(() => settle('late'), waitMs)
      const gone = () => settle('gone')
      const settle = (answer: 'yours' | 'gone' | 'late') => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', gone)
        const index = this.line.indexOf(place)
        if (index >= 0) this.line.splice(index, 1)
        resolve(answer)
      }
      signal?.addEventListener('abort', gone, { once: true })
      this.line.push(place)
    })
  }

  /** The place goes to the first waiting, if any. */
  release() {
    const next = this.line[0]
    if (next) next.start()
    else this.taken--
  }
}
