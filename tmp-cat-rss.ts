import fs from 'node:fs'
import { startAppServer } from './tests/setup/app-server'
import { HOSTILE_APP_ENV, HOSTILE_CASES, prepare } from './scripts/hostile/catalogue'
const app = await startAppServer({ env: HOSTILE_APP_ENV })
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${app.process.pid}/status`, 'utf8'))![1]) / 1024)
const threads = () => fs.readdirSync(`/proc/${app.process.pid}/task`).length
console.log('start', rss(), threads())
const context = await prepare(app.origin)
console.log('prepared', rss(), threads())
for (const hostile of HOSTILE_CASES) {
  const status = await hostile.send(context).catch(() => 0)
  console.log(String(rss()).padStart(5), String(threads()).padStart(3), status, hostile.name.slice(0, 90))
}
await app.stop(); fs.rmSync(app.dataDir, { recursive: true, force: true })
