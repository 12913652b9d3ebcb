// npm run hostile: sends the hostile-request catalogue (scripts/hostile/catalogue.ts) at the BUILT app,
// started here on a fresh data folder, and prints each request's answer and the longest event-loop
// stall seen meanwhile. Exits 1 when an answer is wrong; the stalls' budget is npm run bench's.
import fs from 'node:fs'
import { startAppServer } from '../tests/setup/app-server'
import { HOSTILE_APP_ENV } from './hostile/catalogue'
import { runCatalogue } from './hostile/run'

const STALL_BUDGET_MS = 50

async function main() {
  if (!fs.existsSync('build/server/index.js')) throw new Error('Run `npm run build` first.')
  const app = await startAppServer({ env: HOSTILE_APP_ENV })
  try {
    const results = await runCatalogue(app.origin)
    console.log('| request | answer | expected | longest stall |\n|---|---|---|---|')
    for (const result of results) {
      const stall = `${result.stallMs.toFixed(1)} ms${result.stallMs > STALL_BUDGET_MS ? ' **over**' : ''}`
      console.log(`| ${result.name} | ${result.status}${result.right ? '' : ' **wrong**'} | ${result.expect.join(' or ')} | ${stall} |`)
    }
    const worst = results.reduce((max, result) => (result.stallMs > max.stallMs ? result : max))
    console.log(`\nWorst stall: ${worst.stallMs.toFixed(1)} ms (${worst.name}); budget ${STALL_BUDGET_MS} ms.`)
    return results.every((result) => result.right) ? 0 : 1
  } finally {
    await app.stop()
    fs.rmSync(app.dataDir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
