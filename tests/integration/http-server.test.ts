import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newDataDir, registerOverHttp, START_ARGS, startAppServer, type AppServer } from '../setup/app-server'
import { until } from '../setup/until'

// The HTTP server of `npm start` (server.ts and app/server/http): what it adds around React Router.
let app: AppServer

beforeAll(async () => {
  app = await startAppServer()
})

afterAll(async () => {
  await app.stop()
  fs.rmSync(app.dataDir, { recursive: true, force: true })
})

function accessLines(): Array<Record<string, unknown>> {
  return app
    .logs()
    .split('\n')
    .filter((line) => line.includes('"event":"http.request"'))
    .map((line) => JSON.parse(line))
}

function waitForAccessLine(requestId: string) {
  return until(() => accessLines().find((entry) => entry.requestId === requestId), {
    what: `the access line of ${requestId}`,
    details: app.logs,
  })
}

describe('the access log', () => {
  it('writes one line per answered request with its id, method, path, status and duration', async () => {
    const response = await fetch(`${app.origin}/login?redirectTo=%2Fdashboard`)
    await response.text()
    const requestId = response.headers.get('X-Request-Id')!
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/)
    const line = await waitForAccessLine(requestId)
    expect(line).toMatchObject({ level: 'info', method: 'GET', path: '/login', status: 200 })
    expect(line.durationMs).toEqual(expect.any(Number))
    expect(accessLines().filter((entry) => entry.requestId === requestId)).toHaveLength(1)
  })

  it('logs refusals made before React Router, and never the query string', async () => {
    const refused = await fetch(`${app.origin}/login?token=secret-value`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40b.c',
    })
    await refused.text()
    const line = await waitForAccessLine(refused.headers.get('X-Request-Id')!)
    expect(line).toMatchObject({ method: 'POST', path: '/login', status: 403 })
    expect(app.logs()).not.toContain('secret-value')
  })
})

describe('the access log and secret addresses', () => {
  it("writes a calendar's address without its signature, which is the calendar's credential", async () => {
    const signature = 'S'.repeat(43)
    const response = await fetch(`${app.origin}/resources/calendar/someone.${signature}.ics`)
    expect(response.status).toBe(404)
    const line = await waitForAccessLine(response.headers.get('X-Request-Id')!)
    expect(line).toMatchObject({ path: '/resources/calendar/someone.***.ics', status: 404 })
    expect(app.logs()).not.toContain(signature)
  })
})

describe('start-up', () => {
  it('says which settings are in force, and nothing that reads as if they were ignored', () => {
    const lines = app.logs().split('\n')
    const listening = JSON.parse(lines.find((entry) => entry.includes('"event":"server.listening"'))!)
    expect(listening).toMatchObject({ url: app.origin, listen: `every interface, port ${app.port}`, signups: 'open' })
    expect(listening.message).toContain(`ready at ${app.origin}`)
    expect(listening.database).toMatch(app.databaseUrl.startsWith('file:') ? /^SQLite file .*app\.db$/ : /^PostgreSQL postgres:\/\//)
    expect(listening.writer).toMatch(/^the (offline drafter|model \S+ at )/)
    if (app.databaseUrl.startsWith('file:')) {
      // A new data folder: the migrations were applied, and the app says so in its own words.
      const migrated = JSON.parse(lines.find((entry) => entry.includes('"event":"database.migrated"'))!)
      expect(migrated.migrations.length).toBeGreaterThan(0)
    }
    // Prisma's CLI line, "Prisma config detected, skipping environment variable loading.", is not passed on.
    expect(app.logs()).not.toMatch(/Prisma config|skipping environment variable/)
    // No password of the database URL (on PostgreSQL) is ever printed.
    const password = new URL(app.databaseUrl).password
    if (password) expect(app.logs()).not.toContain(password)
  })

  it('names the folder emails are written to when no SMTP server is set, wherever the database is', () => {
    const line = app
      .logs()
      .split('\n')
      .find((entry) => entry.includes('"event":"email.no_smtp"'))
    const outbox = path.join(app.dataDir, 'outbox')
    expect(JSON.parse(line!)).toMatchObject({ level: 'warn', outbox })
    expect(JSON.parse(line!).message).toContain(`written to ${outbox}/`)
  })
})

describe('a port another program holds', () => {
  it('is named in a message that says what to do, and the app exits with 1', async () => {
    const holder = net.createServer()
    await new Promise<void>((resolve) => holder.listen(0, resolve))
    const { port } = holder.address() as net.AddressInfo
    const dataDir = newDataDir()
    try {
      const child = spawn(process.execPath, START_ARGS, {
        env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: `file:${path.join(dataDir, 'app.db')}` },
      })
      let output = ''
      child.stdout.on('data', (chunk) => (output += chunk))
      child.stderr.on('data', (chunk) => (output += chunk))
      const code = await new Promise((resolve) => child.on('exit', resolve))
      expect(code).toBe(1)
      const line = output.split('\n').find((entry) => entry.includes('"event":"server.listen-failed"'))
      expect(JSON.parse(line!).message).toBe(`Port ${port} is already in use by another program: stop it, or set PORT to a free port.`)
      expect(output).not.toContain('server.listening')
    } finally {
      holder.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('built assets', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
  ])(
    'serves each script compressed at build time (%s: %s), immutable for a year, and logs it under /assets',
    async (accepted, encoding) => {
      const page = await (await fetch(`${app.origin}/login`)).text()
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1] ?? /href="(\/assets\/[^"]+\.js)"/.exec(page)![1]
      const response = await fetch(`${app.origin}${script}`, { headers: { 'Accept-Encoding': accepted } })
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Encoding')).toBe(encoding)
      expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('Content-Type')).toMatch(/javascript/)
      expect(await response.text()).toBe(fs.readFileSync(path.join('build/client', script), 'utf8'))
      const line = await waitForAccessLine(response.headers.get('X-Request-Id')!)
      expect(line).toMatchObject({ path: script, status: 200 })
    },
  )

  it('serves the icon beside the assets for a day, and any other root path as a page', async () => {
    const icon = await fetch(`${app.origin}/favicon.svg`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('Content-Type')).toMatch(/^image\/svg\+xml/)
    expect(icon.headers.get('Cache-Control')).toBe('public, max-age=86400')
    expect(await icon.text()).toBe(fs.readFileSync('build/client/favicon.svg', 'utf8'))
    const missing = await fetch(`${app.origin}/favicon.png`)
    expect(missing.status).toBe(404)
    expect(missing.headers.get('Content-Type')).toMatch(/^text\/html/)
  })

  it('answers 404 for a missing asset instead of rendering a page', async () => {
    const response = await fetch(`${app.origin}/assets/no-such-file-123.js`)
    expect(response.status).toBe(404)
    expect(response.headers.get('Content-Type') ?? '').not.toMatch(/text\/html/)
  })
})

describe('messages in their place, as a browser without JavaScript sees them', () => {
  // Posts as a form does, carrying the cookies every answer sets, like a browser.
  async function browse(jar: Map<string, string>, path: string, form?: Record<string, string>) {
    const response = await fetch(`${app.origin}${path}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        Cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form) : undefined,
    })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]
      jar.set(name, value)
    }
    return response.text()
  }
  const toastsIn = (html: string) => [...html.matchAll(/<p class="toast-message">([^<]*)<\/p>/g)].map((match) => match[1])

  it("shows each answer's own message, never the one before", async () => {
    await registerOverHttp(app.origin, 'taken@example.org')
    const jar = new Map<string, string>()
    const signup = {
      email: 'taken@example.org',
      firstName: 'Ada',
      lastName: 'L',
      password: 'a good password',
      confirmPassword: 'a good password',
      acceptTerms: 'on',
    }
    expect(toastsIn(await browse(jar, '/signup', signup))).toEqual(['An account with this email already exists'])
    const mismatch = await browse(jar, '/signup', { ...signup, email: 'new@example.org', confirmPassword: 'another password' })
    expect(toastsIn(mismatch)).toEqual(['Passwords do not match'])

    expect(toastsIn(await browse(jar, '/login', { email: 'taken@example.org', password: 'not the password' }))).toEqual([
      'Invalid email or password',
    ])
    expect(toastsIn(await browse(jar, '/forgot-password'))).toEqual([])
  })
})

describe('paths that lead nowhere', () => {
  const get = (path: string, cookie?: string) =>
    fetch(`${app.origin}${path}`, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} })

  async function signIn(email: string) {
    await registerOverHttp(app.origin, email)
    const response = await fetch(`${app.origin}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: 'a good password' }),
    })
    return response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ')
  }

  it('sends a mistyped page to /, as docs/spec.md#routes says', async () => {
    for (const path of ['/no/such/page', '/dashbord', '/admin']) {
      const response = await get(path)
      expect(response.status, path).toBe(302)
      expect(response.headers.get('Location'), path).toBe('/')
    }
  })

  it('answers a missing API endpoint with a JSON 404', async () => {
    for (const path of ['/api/nope', '/auth/nope', '/api/narrative/x/y/z']) {
      const response = await get(path)
      expect(response.status, path).toBe(404)
      expect(await response.json(), path).toEqual({ error: 'Not found' })
    }
  })

  it('answers a missing resource, file or narrative page with a 404 page', async () => {
    const cookie = await signIn('nowhere@example.org')
    for (const path of ['/resources/nope', '/robots.txt', '/admin/narratives/x/y', '/admin/narratives/no-such-id']) {
      const response = await get(path, cookie)
      expect(response.status, path).toBe(404)
      const html = await response.text()
      expect(html, path).toMatch(/<h1>(Page|Narrative) not found<\/h1>/)
    }
  })
})

describe('robustness', () => {
  it.each(['foo', 'http://[', 'https://'])(
    'refuses a state change with the malformed Origin %j as cross-site (403, not 500)',
    async (origin) => {
      const response = await fetch(`${app.origin}/login`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40b.c&password=x',
      })
      expect(response.status).toBe(403)
    },
  )

  it("answers a request without a Host header, as a load balancer's HTTP/1.0 health check sends it", async () => {
    const health = await rawRequest(app.port, 'GET /resources/healthcheck HTTP/1.0\r\n\r\n')
    expect(health.split('\r\n')[0]).toBe('HTTP/1.1 200 OK')
    expect(health).toMatch(/\r\n\r\nOK$/)
    const page = await rawRequest(app.port, 'GET /login HTTP/1.0\r\n\r\n')
    expect(page.split('\r\n')[0]).toBe('HTTP/1.1 200 OK')
    expect(page).toContain('<title>Sign in | Impact Narrative Studio</title>')
  })

  it('logs a promise that failed with nobody waiting for it, and keeps serving', async () => {
    // A module loaded before the app that leaves one rejected promise unhandled once the app is up.
    const probe = `setTimeout(() => Promise.reject(new Error('unhandled probe')), 300)`
    const server = await startAppServer({ nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(probe)}`] })
    try {
      const line = await until(
        () =>
          server
            .logs()
            .split('\n')
            .find((entry) => entry.includes('unhandled probe')),
        { what: 'the unhandled rejection logged', details: server.logs },
      )
      expect(JSON.parse(line)).toMatchObject({ level: 'error', event: 'process.unhandled_rejection', error: 'unhandled probe' })
      expect((await fetch(`${server.origin}/resources/healthcheck`)).status).toBe(200)
    } finally {
      await server.stop()
      fs.rmSync(server.dataDir, { recursive: true, force: true })
    }
  })
})

/** Sends bytes as they are and reads the answer until the server closes the connection. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request))
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    socket.on('error', reject)
  })
}

describe('housekeeping', () => {
  // Two starts of the built app and a password hashed: past 20 s on a machine shared with other suites.
  it('purges expired sessions when it starts', async () => {
    const dataDir = newDataDir()
    let server = await startAppServer({ dataDir })
    await registerOverHttp(server.origin, 'expiring@example.org')
    await server.stop()
    const db = new Database(path.join(dataDir, 'app.db'))
    // Stored as Prisma stores a DateTime in SQLite: ISO text.
    db.prepare(`UPDATE "Session" SET "expiresAt" = ?`).run(new Date(Date.now() - 1000).toISOString().replace('Z', '+00:00'))
    db.close()
    server = await startAppServer({ dataDir })
    try {
      await until(() => server.logs().includes('credentials.purged'), { what: 'the purge at start', details: server.logs })
      const reader = new Database(path.join(dataDir, 'app.db'), { readonly: true })
      expect(reader.prepare(`SELECT COUNT(*) AS n FROM "Session"`).get()).toEqual({ n: 0 })
      reader.close()
    } finally {
      await server.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
