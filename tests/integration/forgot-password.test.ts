import fs from 'node:fs'
import net from 'node:net'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { eventOf } from '../setup/app-logs'
import { until } from '../setup/until'

// Forgot-password must not tell known emails from unknown ones: not by its answer, not by waiting for
// the mail, not by failing when the mail does. The built app, with a mail server that accepts
// connections and then never speaks. docs/security.md#password-reset; docs/decisions/015.

let app: AppServer
let silentSmtp: net.Server
const connections: net.Socket[] = []

beforeAll(async () => {
  silentSmtp = net.createServer((socket) => connections.push(socket))
  await new Promise<void>((resolve) => silentSmtp.listen(0, '127.0.0.1', resolve))
  const { port } = silentSmtp.address() as net.AddressInfo
  app = await startAppServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } })
  await registerOverHttp(app.origin, 'known@example.org')
})

afterAll(async () => {
  // The mail server never answers, so a graceful stop would wait for the mail.
  await app.kill()
  for (const socket of connections) socket.destroy()
  silentSmtp.close()
  fs.rmSync(app.dataDir, { recursive: true, force: true })
})

/**
 * Waits until the app has opened a connection to the mail server since `before` were open (the mail
 * goes after the answer), and returns the new ones: another test's connections are not this one's.
 */
async function untilMailServerReached(before: number) {
  await until(() => connections.length > before, { what: 'a connection to the mail server' })
  return connections.slice(before)
}

const forgot = (email: string) =>
  fetch(`${app.origin}/auth/forgot-password`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  })

it('answers a known email at once, the same as an unknown one, while the mail is still under way', async () => {
  const before = connections.length
  const unknown = await forgot('unknown@example.org')
  const known = await forgot('known@example.org')
  expect(known.status).toBe(200)
  expect(await known.text()).toBe(await unknown.text())
  expect(unknown.status).toBe(200)
  // The app did reach for the mail server, which has not said a word yet.
  await untilMailServerReached(before)
})

it('answers the same when sending fails, and logs the failure for the operator', async () => {
  const before = connections.length
  const known = await forgot('known@example.org')
  expect(known.status).toBe(200)
  // The mail server hangs up on the connection this request's mail opened: the send fails.
  for (const socket of await untilMailServerReached(before)) socket.destroy()
  expect(await eventOf(app, known, 'auth.reset_mail_failed')).toMatchObject({ level: 'error' })
  expect((await fetch(`${app.origin}/resources/healthcheck`)).status).toBe(200)
})
