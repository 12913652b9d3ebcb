import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { inject } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai'
import { newDataDir, registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { FULL_INPUT } from '../setup/narrative-input'
import { readEvents } from '../setup/sse'
import { until } from '../setup/until'

// The BUILT app (npm run build first) as a real process: hard kills, SIGTERM, and the backup and
// restore commands against its live database. docs/security.md#data; docs/operations.md#backups.

const PASSWORD = 'a good password'
const servers: AppServer[] = []
const writersRunning: Writers[] = []
const dataDirs: string[] = []
let fake: FakeOpenAI | undefined

/** A data folder holding the run's migrated template database: start-up then has nothing to migrate. */
function migratedDataDir() {
  const dataDir = newDataDir()
  fs.copyFileSync(inject('templateDatabase'), path.join(dataDir, 'app.db'))
  return dataDir
}

/** An empty data folder, removed after the file's tests. */
function emptyDataDir() {
  const dataDir = newDataDir()
  dataDirs.push(dataDir)
  return dataDir
}

async function start(options: { env?: Record<string, string>; dataDir?: string; npmStart?: boolean } = {}) {
  const dataDir = options.dataDir ?? migratedDataDir()
  if (!dataDirs.includes(dataDir)) dataDirs.push(dataDir)
  // The writers below save as fast as they can: far past the default limits on creates.
  const env = { MAX_CREATES_PER_MINUTE: '1000000', MAX_SAVED_NARRATIVES: '1000000', ...options.env }
  const server = await startAppServer({ env, dataDir, npmStart: options.npmStart })
  servers.push(server)
  return server
}

function isRunning(server: AppServer) {
  return server.process.exitCode === null && server.process.signalCode === null
}

afterEach(async () => {
  for (const server of servers.splice(0)) if (isRunning(server)) await server.kill()
  // A test that failed waiting for writes leaves its writers looping.
  for (const writers of writersRunning.splice(0)) await writers.stop()
  await fake?.close()
  fake = undefined
})

afterAll(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** The generous deadline of a wait for writes acknowledged: a fast machine takes a fraction of a second. */
const WRITES_DEADLINE_MS = 30_000
/** Writes acknowledged before the hard kill: two to four seconds' worth on a busy two-core machine, under one on a fast one. */
const HARD_KILL_WRITES = 100

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)))
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

const databaseFile = (dataDir: string) => path.join(dataDir, 'app.db')

function json(token?: string): Record<string, string> {
  return { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }
}

function narrativeBody(n: number) {
  const { company, contactName1, contactEmail1, missionStatement, keyPrograms, impactMetrics } = FULL_INPUT
  return JSON.stringify({
    company,
    contactName1,
    contactEmail1,
    missionStatement,
    keyPrograms,
    impactMetrics,
    tone: 'professional',
    generatedNarrative: `Durability test narrative number ${n}. ${missionStatement}`,
  })
}

type Writers = {
  /** Ids of every 201 answer, in the order they arrived: the acknowledged writes. */
  acked: string[]
  /** Answers other than 201. */
  refused: number[]
  /** Requests that got no answer at all (the server went away mid-request). */
  lost: number
  stop(): Promise<void>
}

/** `loops` clients, each POSTing narratives one after the other until stopped. */
function startWriters(origin: string, token: string, loops: number): Writers {
  let stopped = false
  let sequence = 0
  const writers: Writers = { acked: [], refused: [], lost: 0, stop: async () => {} }
  const loop = async () => {
    while (!stopped) {
      try {
        const response = await fetch(`${origin}/api/narrative`, { method: 'POST', headers: json(token), body: narrativeBody(++sequence) })
        if (response.status === 201) writers.acked.push(((await response.json()) as { data: { id: string } }).data.id)
        else {
          writers.refused.push(response.status)
          await response.body?.cancel()
        }
      } catch {
        writers.lost++
        if (!stopped) await sleep(20)
      }
    }
  }
  const running = Array.from({ length: loops }, loop)
  writers.stop = async () => {
    stopped = true
    await Promise.all(running)
  }
  writersRunning.push(writers)
  return writers
}

/** The ids of `ids` that GET /api/narrative/{id} does not find, checked a few at a time. */
async function missingNarratives(origin: string, token: string, ids: string[]) {
  const missing: string[] = []
  const queue = [...ids]
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        const response = await fetch(`${origin}/api/narrative/${id}`, { headers: json(token) })
        if (response.status !== 200) missing.push(`${id} (${response.status})`)
        await response.body?.cancel()
      }
    }),
  )
  return missing
}

function integrityCheck(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    return {
      verdict: db.pragma('integrity_check', { simple: true }),
      narratives: (db.prepare('SELECT COUNT(*) AS n FROM "Narrative"').get() as { n: number }).n,
    }
  } finally {
    db.close()
  }
}

async function getNarrative(origin: string, token: string, id: string) {
  const response = await fetch(`${origin}/api/narrative/${id}`, { headers: json(token) })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: { status: string; generatedNarrative: string } }).data
}

async function remainingQuota(origin: string, token: string) {
  const response = await fetch(`${origin}/auth/profile`, { headers: json(token) })
  expect(response.status).toBe(200)
  return ((await response.json()) as { count: number }).count
}

/**
 * POST /api/narrative/generate and read up to its first piece of text (then hang up: it goes on without the
 * stream): the record exists, and the runner holds text it has not saved yet.
 */
async function startGeneration(origin: string, token: string) {
  const response = await fetch(`${origin}/api/narrative/generate`, {
    method: 'POST',
    headers: json(token),
    body: JSON.stringify(FULL_INPUT),
  })
  expect(response.status).toBe(200)
  const events = await readEvents(response, (event) => event.event === 'delta' && event.data.text.trim() !== '')
  expect(events[0]?.event).toBe('start')
  expect(events.at(-1)?.event).toBe('delta')
  return events[0].data.id as string
}

type Run = { code: number; stdout: string; stderr: string }

/** `node build/cli/<script>.js ...args` against the database at `file`: what `npm run backup` runs. */
function runScript(script: 'backup' | 'restore', args: string[], file: string): Promise<Run> {
  const env = { NODE_ENV: 'production' as const, PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: `file:${file}` }
  return new Promise((resolve) => {
    execFile(process.execPath, [`build/cli/${script}.js`, ...args], { env, timeout: 30_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ code, stdout: String(stdout), stderr: String(stderr) })
    })
  })
}

describe('durability of the built app', () => {
  it('answers the requests in flight when stopped with SIGTERM, and keeps all it acknowledged', async () => {
    const server = await start()
    const token = await registerOverHttp(server.origin, 'graceful@example.org', PASSWORD)
    const writers = startWriters(server.origin, token, 8)
    await until(() => writers.acked.length >= 30, { what: '30 writes acknowledged', timeoutMs: WRITES_DEADLINE_MS })
    const exitCode = await within(server.stop(), 15_000, 'a graceful stop')
    await writers.stop()
    expect(exitCode).toBe(0)
    expect(writers.refused).toEqual([])
    // Every write the server carried out was answered: nothing committed behind a cut connection
    // (a request on a keep-alive socket the server was closing is reset before it is read, never after).
    expect(integrityCheck(databaseFile(server.dataDir)).narratives).toBe(writers.acked.length)
    const restarted = await start({ dataDir: server.dataDir })
    expect(await missingNarratives(restarted.origin, token, writers.acked)).toEqual([])
  }, 60_000)

  it('stops gracefully when `npm start` is sent SIGTERM by its process id, as a supervisor does', async () => {
    const server = await start({ npmStart: true })
    try {
      expect(await within(server.stop(), 15_000, 'stopping npm start')).toBe(0)
      expect(server.logs()).toContain('"event":"server.stopping"')
      // Nothing is left serving on the port: the signal reached the server, not only npm.
      await expect(fetch(`${server.origin}/resources/healthcheck`)).rejects.toThrow()
    } finally {
      // A server the signal missed would outlive npm: take the whole process group.
      await server.kill().catch(() => {})
    }
  }, 60_000)

  it('keeps every acknowledged write and an intact database through a SIGKILL of the whole process tree mid-writes', async () => {
    const server = await start()
    const token = await registerOverHttp(server.origin, 'writer@example.org', PASSWORD)

    const writersStarted = Date.now()
    const writers = startWriters(server.origin, token, 8)
    // However long they take: eight clients keep requests in flight throughout, so the kill cuts some off.
    await until(() => writers.acked.length >= HARD_KILL_WRITES, {
      what: `${HARD_KILL_WRITES} writes acknowledged`,
      timeoutMs: WRITES_DEADLINE_MS,
    })
    const writingMs = Date.now() - writersStarted
    const killed = server.kill() // SIGKILL to the process group while the eight clients are mid-request
    await killed
    await writers.stop()

    expect(writers.refused).toEqual([])
    expect(writers.acked.length).toBeGreaterThan(50)
    expect(writers.lost).toBeGreaterThan(0) // some requests really were in flight when it died

    const restarted = await start({ dataDir: server.dataDir })
    expect(await missingNarratives(restarted.origin, token, writers.acked)).toEqual([])
    expect(await restarted.stop()).toBe(0)

    const { verdict, narratives } = integrityCheck(databaseFile(server.dataDir))
    expect(verdict).toBe('ok')
    expect(narratives).toBeGreaterThanOrEqual(writers.acked.length)
    console.info(
      `hard kill after ${writingMs} ms of writes: ${writers.acked.length} acknowledged, all found; ${writers.lost} requests cut off; ${narratives} rows`,
    )
  }, 60_000)

  it('on SIGTERM saves a running generation as stopped, closes the database and exits 0', async () => {
    fake = await startFakeOpenAI({ firstTokenDelayMs: 20, pieceIntervalMs: 300 })
    const env = { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'x' }
    const server = await start({ env })
    const token = await registerOverHttp(server.origin, 'graceful@example.org', PASSWORD)
    const id = await startGeneration(server.origin, token)

    const asked = Date.now()
    expect(await within(server.stop(), 20_000, 'the shutdown')).toBe(0)
    const shutdownMs = Date.now() - asked
    // The generation is stopped, not waited for: a shutdown that waited for it (pieces 300 ms apart: minutes) would
    // wait out the 10 s grace for requests (SHUTDOWN_GRACE_MS, app/server/http/start.server.ts). Measured: 2-3 s
    // on a busy two-core machine, most of it after the generation is saved.
    expect(shutdownMs).toBeLessThan(8_000)
    expect(server.logs()).toMatch(/"event":"generation\.finished".*"status":"stopped"/)
    // The database was closed: the last connection's close checkpoints the WAL into the file and removes it.
    expect(fs.existsSync(`${databaseFile(server.dataDir)}-wal`)).toBe(false)

    const restarted = await start({ dataDir: server.dataDir, env })
    const narrative = await getNarrative(restarted.origin, token, id)
    expect(narrative.status).toBe('stopped')
    expect(narrative.generatedNarrative.trim()).not.toBe('')
    expect(restarted.logs()).not.toContain('generation.recovered') // nothing was left generating
    console.info(`graceful shutdown: exit 0 after ${shutdownMs} ms; ${narrative.generatedNarrative.length} characters saved as stopped`)
  }, 60_000)

  it('backs up while writes continue, and restores into a fresh data folder with working sign-ins', async () => {
    const server = await start()
    const email = 'backup@example.org'
    const token = await registerOverHttp(server.origin, email, PASSWORD)
    const backupFile = path.join(server.dataDir, 'backups', 'ins.db')
    fs.mkdirSync(path.dirname(backupFile))

    const writers = startWriters(server.origin, token, 4)
    await until(() => writers.acked.length >= 20, { what: '20 writes acknowledged', timeoutMs: WRITES_DEADLINE_MS })
    const ackedBeforeBackup = [...writers.acked]
    const backup = await runScript('backup', [backupFile], databaseFile(server.dataDir))
    const ackedDuringBackup = writers.acked.length - ackedBeforeBackup.length
    // The four writers had requests in flight throughout. The backup, one read transaction, takes tens
    // of milliseconds, less than a write on a busy machine: what shows it never blocked them is that
    // they go on being answered.
    const ackedAfterBackup = writers.acked.length
    await until(() => writers.acked.length >= ackedAfterBackup + 5, {
      what: 'writes acknowledged after the backup',
      timeoutMs: WRITES_DEADLINE_MS,
    })
    await writers.stop()
    expect(backup, backup.stderr).toMatchObject({ code: 0 })
    expect(backup.stdout).toMatch(/integrity ok/)
    expect(backup.stdout).toMatch(/User 1 rows/)
    expect(writers.acked.length).toBeGreaterThanOrEqual(ackedAfterBackup + 5) // the app kept writing
    expect(writers.refused).toEqual([])

    // A running app is detected: the restore refuses and changes nothing.
    const whileRunning = await runScript('restore', [backupFile], databaseFile(server.dataDir))
    expect(whileRunning.code).toBe(1)
    expect(whileRunning.stderr).toMatch(/in use: stop the app first/)
    expect(fs.readdirSync(server.dataDir).filter((name) => name.includes('before-restore'))).toEqual([])
    expect(await server.stop()).toBe(0)

    // An existing backup is not overwritten without --force.
    const before = fs.readFileSync(backupFile)
    const again = await runScript('backup', [backupFile], databaseFile(server.dataDir))
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already exists; pass --force/)
    expect(fs.readFileSync(backupFile).equals(before)).toBe(true)

    // A file that is not a database is refused before anything is touched.
    const notADatabase = path.join(server.dataDir, 'backups', 'notes.txt')
    fs.writeFileSync(notADatabase, 'these are not the pages you are looking for\n'.repeat(200))
    const elsewhere = emptyDataDir()
    const refused = await runScript('restore', [notADatabase], databaseFile(elsewhere))
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/is not a SQLite database/)
    expect(fs.existsSync(databaseFile(elsewhere))).toBe(false)

    // Restore into a fresh data folder, start the app there, sign in with the password.
    const fresh = emptyDataDir()
    const restore = await runScript('restore', [backupFile], databaseFile(fresh))
    expect(restore, restore.stderr).toMatchObject({ code: 0 })
    expect(fs.readdirSync(fresh).sort()).toEqual(['app.db'])

    const restored = await start({ dataDir: fresh })
    const wrong = await fetch(`${restored.origin}/auth/login`, {
      method: 'POST',
      headers: json(),
      body: JSON.stringify({ email, password: 'not the password' }),
    })
    expect(wrong.status).toBe(401)
    const login = await fetch(`${restored.origin}/auth/login`, {
      method: 'POST',
      headers: json(),
      body: JSON.stringify({ email, password: PASSWORD }),
    })
    expect(login.status).toBe(200)
    const signedIn = ((await login.json()) as { token: string }).token
    const list = await fetch(`${restored.origin}/api/narrative?limit=10`, { headers: json(signedIn) })
    expect(list.status).toBe(200)
    const { data, pagination } = (await list.json()) as { data: unknown[]; pagination: { total: number } }
    expect(data.length).toBeGreaterThan(0)
    // Everything acknowledged before the backup started is in it; at most what was ever written.
    expect(pagination.total).toBeGreaterThanOrEqual(ackedBeforeBackup.length)
    expect(pagination.total).toBeLessThanOrEqual(writers.acked.length)
    expect(await missingNarratives(restored.origin, signedIn, ackedBeforeBackup)).toEqual([])
    expect(await restored.stop()).toBe(0)
    expect(integrityCheck(databaseFile(fresh)).verdict).toBe('ok')
    console.info(
      `backup: ${ackedBeforeBackup.length} writes before, ${ackedDuringBackup} during; restored ${pagination.total} narratives; ${backup.stdout.trim()}`,
    )
  }, 60_000)

  it('after a SIGKILL mid-generation, the restart marks the narrative failed and refunds the quota', async () => {
    fake = await startFakeOpenAI({ firstTokenDelayMs: 20, pieceIntervalMs: 300 })
    const env = { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'x', DAILY_NARRATIVE_LIMIT: '10' }
    const server = await start({ env })
    const token = await registerOverHttp(server.origin, 'crash@example.org', PASSWORD)
    const id = await startGeneration(server.origin, token)
    expect(await remainingQuota(server.origin, token)).toBe(9)
    expect((await getNarrative(server.origin, token, id)).status).toBe('generating')

    await server.kill()

    const restarted = await start({ dataDir: server.dataDir, env })
    expect(restarted.logs()).toMatch(/"event":"generation\.recovered".*"count":1/)
    expect((await getNarrative(restarted.origin, token, id)).status).toBe('failed')
    expect(await remainingQuota(restarted.origin, token)).toBe(10)
  }, 60_000)
})
