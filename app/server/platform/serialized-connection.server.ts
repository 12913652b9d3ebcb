import type { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3['connect']>>
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>
type Query = Parameters<Adapter['queryRaw']>[0]

/** A first-come, first-served lock whose holder, when free, is granted it without waiting. */
class ConnectionLock {
  #held = false
  #waiting: (() => void)[] = []

  get held() {
    return this.#held
  }

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true
      return Promise.resolve()
    }
    return new Promise((resolve) => this.#waiting.push(resolve))
  }

  release() {
    const next = this.#waiting.shift()
    if (next) next()
    else this.#held = false
  }
}

/**
 * better-sqlite3 gives Prisma one connection, and the adapter only keeps transactions from
 * overlapping each other: a statement from another request, sent while a transaction awaits between
 * its own statements, runs inside it. It is then rolled back with it, or reads its uncommitted rows.
 * This wrapper makes such a statement wait until the transaction ends. better-sqlite3 runs each
 * statement synchronously, so a statement that finds the connection free runs at once, whole.
 */
export function serializeTransactions(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  const connect = factory.connect.bind(factory)
  return Object.assign(Object.create(factory) as PrismaBetterSQLite3, {
    connect: async () => serialize(await connect()),
  })
}

function serialize(adapter: Adapter): Adapter {
  const lock = new ConnectionLock()
  // Runs `statement` now when no transaction is open, else after the ones ahead of it.
  const whenFree = <T>(statement: () => Promise<T>): Promise<T> => {
    if (!lock.held) return statement()
    return lock.acquire().then(() => {
      try {
        return statement()
      } finally {
        lock.release()
      }
    })
  }
  return Object.assign(Object.create(adapter) as Adapter, {
    queryRaw: (query: Query) => whenFree(() => adapter.queryRaw(query)),
    executeRaw: (query: Query) => whenFree(() => adapter.executeRaw(query)),
    executeScript: (script: string) => whenFree(() => adapter.executeScript(script)),
    async startTransaction(...args: Parameters<Adapter['startTransaction']>) {
      await lock.acquire()
      try {
        return releasingOnEnd(await adapter.startTransaction(...args), () => lock.release())
      } catch (error) {
        lock.release()
        throw error
      }
    },
  })
}

function releasingOnEnd(transaction: Transaction, release: () => void): Transaction {
  const end = (finish: () => Promise<void>) => () => finish().finally(release)
  return Object.assign(Object.create(transaction) as Transaction, {
    commit: end(() => transaction.commit()),
    rollback: end(() => transaction.rollback()),
  })
}
