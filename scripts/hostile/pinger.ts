import { Worker } from 'node:worker_threads'

// A pinger on a thread of its own: it asks the app's healthcheck every few milliseconds over one
// kept-alive connection and remembers the slowest answer. While the app's event loop is held, the
// ping waits, so the slowest answer of a window bounds the longest stall in it from above.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
let worst = 0
let inFlight = null
let stopped = false
function ping() {
  if (stopped) return
  const started = performance.now()
  inFlight = new Promise((settle) => {
    const done = () => {
      worst = Math.max(worst, performance.now() - started)
      settle()
    }
    http.get(workerData.url, { agent }, (response) => { response.resume(); response.on('end', done) }).on('error', done)
  }).then(() => { inFlight = null; setTimeout(ping, workerData.everyMs) })
}
parentPort.on('message', async (message) => {
  if (message === 'stop') { stopped = true; agent.destroy(); parentPort.close(); return }
  if (inFlight) await inFlight
  parentPort.postMessage(worst)
  worst = 0
})
ping()
`

export type Pinger = {
  /** The slowest ping answered since the last call, in milliseconds; a ping under way is waited for. */
  worst(): Promise<number>
  stop(): Promise<void>
}

export function startPinger(origin: string, everyMs = 5): Pinger {
  const worker = new Worker(WORKER, { eval: true, workerData: { url: `${origin}/resources/healthcheck`, everyMs } })
  return {
    worst: () =>
      new Promise((resolve) => {
        worker.once('message', resolve)
        worker.postMessage('read')
      }),
    async stop() {
      worker.postMessage('stop')
      await worker.terminate()
    },
  }
}
