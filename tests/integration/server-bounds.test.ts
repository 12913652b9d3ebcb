import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { readEvents } from '../setup/sse'
import { until } from '../setup/until'
import { asFormFields, FULL_INPUT } from '../setup/narrative-input'
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai'

// What one client can hold of the server, and who can read its files: the BUILT app over real sockets,
// with timeouts shortened so a slow client is cut off within the test's time.

const HEADERS_TIMEOUT_MS = 1000
const REQUEST_TIMEOUT_MS = 2000
const MAX_CONNECTIONS = 20

let app: AppServer
let model: FakeOpenAI

beforeAll(async () => {
  model = await startFakeOpenAI()
  app = await startAppServer({
    env: {
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      HOST: '127.0.0.1',
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'test-key',
    },
  })
})

afterAll(async () => {
  await app.stop()
  await model.close()
  fs.rmSync(app.dataDir, { recursive: true, force: true })
})

/** A narrative the fake model writes in twelve pieces 300 ms apart: longer than REQUEST_TIMEOUT_MS. */
const SLOW_INPUT = { ...FULL_INPUT, missionStatement: `${FULL_INPUT.missionStatement} [[fake:slow]] [[fake:pieces=12]]` }

/** Opens a socket, writes `first`, then one more byte every `everyMs`; resolves with the first answer line and when the socket closed. */
function dribble(first: string, everyMs: number): Promise<{ statusLine: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    let statusLine = ''
    let timer: NodeJS.Timeout | undefined
    const socket = net.connect(app.port, '127.0.0.1', () => {
      socket.write(first)
      timer = setInterval(() => socket.writable && socket.write('a'), everyMs)
    })
    socket.on('data', (chunk) => (statusLine ||= String(chunk).split('\r\n')[0]))
    // The server answered and closed its side: writing on would only draw a reset.
    socket.on('end', () => clearInterval(timer))
    // A byte sent as the server closed is answered by a reset: after the answer, that is the close.
    socket.on('error', (error: NodeJS.ErrnoException) => (statusLine && error.code === 'ECONNRESET' ? undefined : reject(error)))
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ statusLine, closedAfterMs: Date.now() - started })
    })
  })
}

describe('slow clients', () => {
  it('cuts off a client that sends its headers slowly with 408, after HEADERS_TIMEOUT_MS', async () => {
    const { statusLine, closedAfterMs } = await dribble('GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 100)
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout')
    expect(closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 3000)
  })

  it('cuts off a client that sends its body slowly with 408, after REQUEST_TIMEOUT_MS', async () => {
    const head =
      'POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n'
    const { statusLine, closedAfterMs } = await dribble(head, 100)
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout')
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 3000)
  })

  it('keeps sending an event stream that lasts longer than REQUEST_TIMEOUT_MS', async () => {
    const token = await registerOverHttp(app.origin, 'slow-stream@example.org')
    const started = Date.now()
    const response = await fetch(`${app.origin}/api/narrative/generate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(SLOW_INPUT),
    })
    const events = await readEvents(response)
    expect(Date.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS)
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete' } })
  })

  it('keeps waiting for a generation without JavaScript for longer than REQUEST_TIMEOUT_MS, then shows it', async () => {
    await registerOverHttp(app.origin, 'slow-page@example.org')
    const login = await fetch(`${app.origin}/login`, {
      method: 'POST',
      body: new URLSearchParams({ email: 'slow-page@example.org', password: 'a good password' }),
      redirect: 'manual',
    })
    const cookie = login.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ')
    const started = Date.now()
    const page = await fetch(`${app.origin}/dashboard`, {
      method: 'POST',
      headers: { Cookie: cookie },
      body: new URLSearchParams({ ...asFormFields(SLOW_INPUT), intent: 'generate' }),
      redirect: 'manual',
    })
    expect(Date.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS)
    expect(page.status).toBe(302)
    expect(page.headers.get('Location')).toMatch(/^\/admin\/narratives\/c[a-z0-9]+/)
  })
})

describe('the address it listens on', () => {
  const connect = (host: string) =>
    new Promise<string>((resolve) => {
      const socket = net.connect({ host, port: app.port })
      socket.on('connect', () => (socket.destroy(), resolve('connected')))
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    })

  it('with HOST=127.0.0.1 answers on that address and refuses connections on any other', async () => {
    expect((await fetch(`http://127.0.0.1:${app.port}/resources/healthcheck`)).status).toBe(200)
    expect(await connect('127.0.0.2')).toBe('ECONNREFUSED')
  })
})

describe('connections', () => {
  it(`holds at most MAX_CONNECTIONS at once, closing the ones past it, and serves again once they go`, async () => {
    const sockets = await Promise.all(
      Array.from(
        { length: MAX_CONNECTIONS + 5 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const socket = net.connect(app.port, '127.0.0.1', () => resolve(socket))
            socket.on('error', () => {})
          }),
      ),
    )
    // The server closes what it will not hold as soon as it accepts it.
    const closed = () => sockets.filter((socket) => socket.destroyed || socket.readableEnded).length
    await until(() => closed() >= 5, {
      what: 'the server to close the 5 connections past MAX_CONNECTIONS',
      details: () => `${closed()} closed`,
    })
    for (const socket of sockets) socket.destroy()
    // Once it has seen them go it serves again: until then it closes each new connection, and fetch fails.
    let health: number | string = ''
    const healthy = async () => (health = await fetch(`${app.origin}/resources/healthcheck`).then((r) => r.status, String)) === 200
    await until(healthy, { what: 'a health check answered once the connections are gone', details: () => `last: ${health}` })
  })
})

describe('the data folder', () => {
  const mode = (file: string) => fs.statSync(path.join(app.dataDir, file)).mode & 0o777

  it('keeps the database, its journal, the session secret and the outbox readable by the server’s user alone', async () => {
    await registerOverHttp(app.origin, 'private-files@example.org')
    await fetch(`${app.origin}/auth/forgot-password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'private-files@example.org' }),
    })
    await expect.poll(() => fs.existsSync(path.join(app.dataDir, 'outbox')), { timeout: 5000 }).toBe(true)
    expect(mode('app.db')).toBe(0o600)
    expect(mode('app.db-wal')).toBe(0o600)
    expect(mode('session-secret')).toBe(0o600)
    expect(mode('outbox')).toBe(0o700)
    for (const mail of fs.readdirSync(path.join(app.dataDir, 'outbox'))) expect(mode(path.join('outbox', mail))).toBe(0o600)
  })

  // Two starts of the built app: past 20 s on a machine shared with other suites.
  it('makes a database an older version left readable by everyone private at start', async () => {
    const older = await startAppServer()
    await older.stop()
    fs.chmodSync(path.join(older.dataDir, 'app.db'), 0o644)
    fs.chmodSync(path.join(older.dataDir, 'session-secret'), 0o644)
    fs.mkdirSync(path.join(older.dataDir, 'outbox'), { mode: 0o755 })
    fs.writeFileSync(path.join(older.dataDir, 'outbox', 'old-mail.txt'), 'To: someone\n', { mode: 0o644 })
    const restarted = await startAppServer({ dataDir: older.dataDir })
    try {
      const modeOf = (file: string) => fs.statSync(path.join(older.dataDir, file)).mode & 0o777
      expect([modeOf('app.db'), modeOf('session-secret'), modeOf('outbox'), modeOf('outbox/old-mail.txt')]).toEqual([
        0o600, 0o600, 0o700, 0o600,
      ])
    } finally {
      await restarted.stop()
      fs.rmSync(older.dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
