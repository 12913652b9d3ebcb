import { prisma } from '~/server/platform/db.server'
import { resetDatabase } from '../setup/db'
import { makeUser } from '../setup/users'

// The app has one SQLite connection. A transaction that awaits between its statements must not let
// another request's statements run inside it: they would be rolled back with it, or read its
// uncommitted writes. docs/security.md#data; docs/decisions/016.

beforeEach(resetDatabase)

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

class Rollback extends Error {}

/** Request A: writes in a transaction, awaits (as real code does), then fails and rolls back. */
function failingTransaction(userId: string, whileOpen: () => Promise<unknown>) {
  return prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { firstName: 'Uncommitted' } })
    await whileOpen()
    throw new Rollback()
  })
}

test("another request's write during a failing transaction is kept", async () => {
  const user = await makeUser()
  let acknowledged = false
  const writeB = async () => {
    // Request B, arriving while A is open: its insert is acknowledged to its client...
    await prisma.session.create({ data: { id: 'session-b', kind: 'api', userId: user.id, expiresAt: new Date(Date.now() + 60_000) } })
    acknowledged = true
  }
  let b: Promise<void> | undefined
  await expect(
    failingTransaction(user.id, async () => {
      b = writeB()
      await pause(50)
    }),
  ).rejects.toBeInstanceOf(Rollback)
  await b
  // ...so it must survive A's rollback.
  expect(acknowledged).toBe(true)
  expect(await prisma.session.findUnique({ where: { id: 'session-b' } })).not.toBeNull()
  expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).firstName).toBe('Test')
})

test('a reader outside the transaction never sees its uncommitted writes', async () => {
  const user = await makeUser()
  let seen: string | undefined
  let read: Promise<void> | undefined
  await expect(
    failingTransaction(user.id, async () => {
      read = prisma.user.findUniqueOrThrow({ where: { id: user.id } }).then((row) => void (seen = row.firstName))
      await pause(50)
    }),
  ).rejects.toBeInstanceOf(Rollback)
  await read
  expect(seen).toBe('Test')
})

test('a transaction commits all of its writes or none', async () => {
  const user = await makeUser()
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { firstName: 'Both' } })
    await tx.session.create({ data: { id: 'committed', kind: 'api', userId: user.id, expiresAt: new Date(Date.now() + 60_000) } })
  })
  expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).firstName).toBe('Both')
  expect(await prisma.session.count({ where: { id: 'committed' } })).toBe(1)

  await expect(
    prisma.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { firstName: 'Neither' } })
      // A unique-key violation halfway: the first write must go with it.
      await tx.session.create({ data: { id: 'committed', kind: 'api', userId: user.id, expiresAt: new Date() } })
    }),
  ).rejects.toThrow()
  expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).firstName).toBe('Both')
})

test('transactions started together run one after the other, and each sees the last one committed', async () => {
  const user = await makeUser()
  await prisma.user.update({ where: { id: user.id }, data: { quotaUsed: 0 } })
  const increment = () =>
    prisma.$transaction(async (tx) => {
      const { quotaUsed } = await tx.user.findUniqueOrThrow({ where: { id: user.id }, select: { quotaUsed: true } })
      await pause(5)
      await tx.user.update({ where: { id: user.id }, data: { quotaUsed: quotaUsed + 1 } })
    })
  await Promise.all(Array.from({ length: 10 }, increment))
  expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).quotaUsed).toBe(10)
})

test('a commit that fails leaves the connection usable for everyone else', async () => {
  // Deferred foreign keys are checked at COMMIT: the commit itself fails.
  await expect(
    prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('PRAGMA defer_foreign_keys = ON')
      await tx.session.create({ data: { id: 'orphan', kind: 'api', userId: 'no-such-user', expiresAt: new Date(Date.now() + 60_000) } })
    }),
  ).rejects.toThrow()
  const answered = await Promise.race([
    prisma.user.count().then(() => 'answered'),
    new Promise((resolve) => setTimeout(() => resolve('stuck'), 3000)),
  ])
  expect(answered).toBe('answered')
  expect(await prisma.session.count({ where: { id: 'orphan' } })).toBe(0)
  // And transactions still run.
  await prisma.$transaction(async (tx) => tx.user.count())
})
