import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { copyDatabase, freePort, testPostgres } from './postgres'
import { until } from './until'

// Runs the BUILT app (npm run build first) as a real process on loopback, with a data folder of its
// own, for tests that need HTTP, signals or crashes: `npm start`'s own script, not a mock.

/** `npm start`'s own command line (package.json), run with this node: its flags are part of the app. */
export const START_ARGS = startArgs()

function startArgs(): string[] {
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: { start: string } }
  // `exec`: the shell npm runs the script in becomes node, so a signal npm passes on reaches the server.
  const [shellExec, command, ...args] = pkg.scripts.start.split(/\s+/)
  if (shellExec !== 'exec' || command !== 'node') throw new Error(`npm start should exec node, not run ${pkg.scripts.start}`)
  return args
}

export type AppServer = {
  origin: string
  port: number
  dataDir: string
  /** Its DATABASE_URL: the data folder's SQLite file, or a PostgreSQL database. */
  databaseUrl: string
  process: ChildProcess
  /** Everything the process printed to stdout and stderr so far. */
  logs(): string
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>
  /** SIGKILL the whole process group, as a crash would. */
  kill(): Promise<void>
}

export function newDataDir() {
  const dir = path.resolve('tests/.tmp', `app-${crypto.randomUUID()}`)
  fs.mkdirSync(dir, { recursive: true })
  return dir
}

/**
 * Starts the built app with node and `npm start`'s arguments, or (`npmStart`) as `npm start` itself.
 * A free port can be taken by another test's server between our probe and the app's listen; the app
 * then exits with EADDRINUSE, and it is started again on another port.
 */
export async function startAppServer(options: StartOptions = {}): Promise<AppServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options)
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error
    }
  }
}

type StartOptions = { env?: Record<string, string>; dataDir?: string; nodeArgs?: string[]; npmStart?: boolean }

class PortTaken extends Error {}

async function startOnce({ env = {}, dataDir = newDataDir(), nodeArgs = [], npmStart = false }: StartOptions): Promise<AppServer> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  let output = ''
  const command = npmStart ? 'npm' : process.execPath
  const args = npmStart ? ['start'] : [...nodeArgs, ...START_ARGS]
  const appEnv: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    ...(await databaseFor(dataDir)),
    APP_ORIGIN: origin,
    ...env,
  }
  const child = spawn(command, args, {
    detached: true, // its own process group, so kill() takes the whole tree
    env: appEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  await waitForHealth(origin, exited, () => output)
  return {
    origin,
    port,
    dataDir,
    databaseUrl: appEnv.DATABASE_URL!,
    process: child,
    logs: () => output,
    async stop() {
      child.kill('SIGTERM')
      return exited
    },
    async kill() {
      process.kill(-child.pid!, 'SIGKILL')
      await exited
    },
  }
}

/**
 * The data folder's SQLite file; in a run on PostgreSQL, a database of the folder's own instead (the
 * same one each time the folder is used, as a restart finds its file), with the settings PostgreSQL
 * requires: a shared session secret and SMTP.
 */
async function databaseFor(dataDir: string): Promise<Record<string, string>> {
  const postgres = testPostgres()
  if (!postgres) return { DATABASE_URL: `file:${path.join(dataDir, 'app.db')}` }
  const name = `app_${crypto.createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`
  await copyDatabase(`${postgres.server}postgres`, postgres.template, name)
  return { DATABASE_URL: `${postgres.server}${name}`, SESSION_SECRET: process.env.SESSION_SECRET!, SMTP_URL: globalThis.smtpSink.url }
}

/** Healthy, and this process says it listens: a healthcheck alone could be answered by another server on the port. */
async function waitForHealth(origin: string, exited: Promise<number | null>, logs: () => string) {
  let done = false
  void exited.then(() => (done = true))
  await until(
    async () => {
      if (done && logs().includes('EADDRINUSE')) throw new PortTaken(logs())
      if (done) throw new Error(`The app exited during start-up:\n${logs()}`)
      if (!logs().includes('"event":"server.listening"')) return false
      return fetch(`${origin}/resources/healthcheck`).then(
        (r) => r.ok,
        () => false,
      )
    },
    { what: 'the app to become healthy', timeoutMs: 30_000, intervalMs: 25, details: logs },
  )
}

/** Registers an account over HTTP and returns its bearer token. */
export async function registerOverHttp(origin: string, email: string, password = 'a good password') {
  const response = await fetch(`${origin}/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, firstName: 'Test', lastName: 'Person', password, confirmPassword: password }),
  })
  if (response.status !== 201) throw new Error(`register ${email}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { token: string }).token
}
