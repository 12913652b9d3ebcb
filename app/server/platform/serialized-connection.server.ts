import type { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3['connect']>>
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>
type Query = Parameters<Adapter['queryRaw']>[0]

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
 * One connection: a statement from another request, sent while a transaction awaits between its statements,
 * would run inside it. It waits for the transaction to end instead (decision 016).
 */
export function serializeTransactions(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  const connect = factory.connect.bind(factory)
  return Object.assign(Object.create(factory) as PrismaBetterSQLite3, {
    connect: async () => serialize(await connect()),
  })
}

function serialize(adapter: Adapter): Adapter {
  const lock = new ConnectionLock()
  // better-sqlite3 runs each statement synchronously, so one that finds the connection free runs whole.
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

const ENDS_TRANSACTION = /^\s*(COMMIT|ROLLBACK)\b/i

/** When COMMIT or ROLLBACK fails, Prisma calls neither commit() nor rollback(): roll back and release here, or all waits. */
function releasingOnEnd(transaction: Transaction, release: () => void): Transaction {
  let released = false
  const releaseOnce = () => {
    if (released) return
    released = true
    release()
  }
  const end = (finish: () => Promise<void>) => () => finish().finally(releaseOnce)
  const abandon = async () => {
    await transaction.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] }).catch(() => {})
    await end(() => transaction.rollback())()
  }
  const guarded =
    <T>(statement: (query: Query) => Promise<T>) =>
    async (query: Query): Promise<T> => {
      try {
        return await statement(query)
      } catch (error) {
        if (ENDS_TRANSACTION.test(query.sql)) await abandon()
        throw error
      }
    }
  return Object.assign(Object.create(transaction) as Transaction, {
    queryRaw: guarded((query) => transaction.queryRaw(query)),
    executeRaw: guarded((query) => transaction.executeRaw(query)),
    commit: end(() => transaction.commit()),
    rollback: end(() => transaction.rollback()),
  })
}
