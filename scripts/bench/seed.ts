import crypto from 'node:crypto'
import argon2 from 'argon2'
import Database from 'better-sqlite3'
import { createCookieSessionStorage } from 'react-router'

export const BENCH_PASSWORD = 'bench password 1'

const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00')
const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

export type Actor = { id: string; token: string; cookie: string }

/** Writes users, sessions and narratives straight into the migrated database (the app is stopped). */
export async function seed(databaseFile: string, secret: string, counts: { heavy: number; total: number; generators: number }) {
  const db = new Database(databaseFile)
  db.pragma('journal_mode = WAL')
  const passwordHash = await argon2.hash(BENCH_PASSWORD, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 })
  const cookies = createCookieSessionStorage({
    cookie: { name: '__session', secrets: [secret], httpOnly: true, sameSite: 'lax', path: '/' },
  })
  const started = Date.now() - counts.total * 1000
  const insertUser = db.prepare(
    `INSERT INTO "User" (id, email, firstName, lastName, passwordHash, isAdmin, termsAcceptedAt, createdAt, updatedAt)
     VALUES (?, ?, 'Bench', ?, ?, ?, ?, ?, ?)`,
  )
  const insertSession = db.prepare(`INSERT INTO "Session" (id, kind, userId, expiresAt, createdAt) VALUES (?, ?, ?, ?, ?)`)
  const insertNarrative = db.prepare(
    `INSERT INTO "Narrative" (id, userId, company, contactName1, contactEmail1, missionStatement, keyPrograms, impactMetrics,
       tone, generatedNarrative, status, engine, createdAt, updatedAt)
     VALUES (?, ?, ?, 'Maria Delgado', 'maria@example.org', ?, ?, ?, 'professional', ?, 'complete', 'gpt-4', ?, ?)`,
  )
  const text = NARRATIVE_400_WORDS

  async function makeActor(index: number, isAdmin = false): Promise<Actor> {
    const id = `bench-user-${index}`
    const now = iso(started + index)
    insertUser.run(id, `bench${index}@bench.test`, `User${index}`, passwordHash, isAdmin ? 1 : 0, now, now, now)
    const apiToken = crypto.randomBytes(32).toString('base64url')
    const cookieToken = crypto.randomBytes(32).toString('base64url')
    const expires = iso(Date.now() + 86_400_000)
    insertSession.run(hash(apiToken), 'api', id, expires, now)
    insertSession.run(hash(cookieToken), 'cookie', id, expires, now)
    const session = await cookies.getSession()
    session.set('sessionId', cookieToken)
    return { id, token: apiToken, cookie: (await cookies.commitSession(session)).split(';')[0] }
  }

  const admin = await makeActor(0, true)
  const heavy = await makeActor(1)
  const others: Actor[] = []
  for (let i = 0; i < 90; i++) others.push(await makeActor(2 + i))
  const generators: Actor[] = []
  for (let i = 0; i < counts.generators; i++) generators.push(await makeActor(1000 + i))

  db.transaction(() => {
    for (let i = 0; i < counts.total; i++) {
      const owner = i < counts.heavy ? heavy : others[i % others.length]
      const at = iso(started + i * 1000)
      insertNarrative.run(
        `bench-narrative-${i}`,
        owner.id,
        `Organisation ${i}`,
        'Our mission.',
        'Our programs.',
        'Our results.',
        text,
        at,
        at,
      )
    }
  })()
  db.close()
  return { admin, heavy, generators, docxNarrativeId: 'bench-narrative-0' }
}

export const NARRATIVE_400_WORDS = Array.from({ length: 5 }, (_, p) =>
  Array.from(
    { length: 80 },
    (_, w) => ['community', 'families', 'support', 'growth', 'program', 'results', 'volunteers', 'impact'][(w + p) % 8],
  ).join(' '),
).join('\n\n')
