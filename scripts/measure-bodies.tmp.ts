import fs from 'node:fs'
import { startAppServer } from '../tests/setup/app-server'
import { HOSTILE_APP_ENV, HOSTILE_CASES, prepare } from './hostile/catalogue'
import { startPinger } from './hostile/pinger'

const app = await startAppServer({ env: HOSTILE_APP_ENV })
try {
  const context = await prepare(app.origin)
  const pinger = startPinger(app.origin)
  await pinger.worst()
  for (const hostile of HOSTILE_CASES.slice(-5)) {
    for (let i = 0; i < 3; i++) {
      const started = performance.now()
      const status = await hostile.send(context)
      const ms = performance.now() - started
      console.log(`${hostile.name}: ${status} in ${ms.toFixed(0)} ms, stall ${(await pinger.worst()).toFixed(1)} ms`)
    }
  }
  await pinger.stop()
} finally {
  await app.stop()
  fs.rmSync(app.dataDir, { recursive: true, force: true })
}
