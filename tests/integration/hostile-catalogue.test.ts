import fs from 'node:fs'
import { HOSTILE_APP_ENV, HOSTILE_CASES, prepare, type Context } from '../../scripts/hostile/catalogue'
import { startAppServer, type AppServer } from '../setup/app-server'

// The hostile-request catalogue (docs/decisions/025) against the BUILT app: each request gets the answer
// a person relies on. How long the server was held meanwhile is npm run bench's to measure, not a test's.

let app: AppServer
let context: Context

beforeAll(async () => {
  app = await startAppServer({ env: HOSTILE_APP_ENV })
  context = await prepare(app.origin)
}, 120_000)

afterAll(async () => {
  await app.stop()
  fs.rmSync(app.dataDir, { recursive: true, force: true })
})

it.each(HOSTILE_CASES.map((hostile) => [hostile.name, hostile] as const))('%s', async (_name, hostile) => {
  expect(hostile.expect).toContain(await hostile.send(context))
  // Whatever was sent, the server goes on answering.
  expect((await fetch(`${app.origin}/resources/healthcheck`)).status).toBe(200)
})
