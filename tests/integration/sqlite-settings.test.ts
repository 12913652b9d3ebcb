import { prisma } from '~/server/platform/db.server'

// docs/security.md#data: the settings app/server/platform/db.server.ts gives SQLite at start, read back
// through the app's own Prisma client (the connection every query of the app uses).

async function pragma(name: string): Promise<unknown> {
  const [row] = await prisma.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`)
  const value = Object.values(row)[0]
  return typeof value === 'bigint' ? Number(value) : value
}

describe('the SQLite settings', () => {
  it('read back as set: WAL, synchronous NORMAL, foreign keys on, a 5 s busy timeout', async () => {
    expect({
      journal_mode: await pragma('journal_mode'),
      synchronous: await pragma('synchronous'),
      foreign_keys: await pragma('foreign_keys'),
      busy_timeout: await pragma('busy_timeout'),
    }).toEqual({ journal_mode: 'wal', synchronous: 1, foreign_keys: 1, busy_timeout: 5000 })
  })

  it('enforce foreign keys: a session of no user is refused', async () => {
    await expect(
      prisma.session.create({ data: { id: 'orphan', kind: 'api', userId: 'no-such-user', expiresAt: new Date(Date.now() + 60_000) } }),
    ).rejects.toThrow()
    expect(await prisma.session.count({ where: { id: 'orphan' } })).toBe(0)
  })
})
