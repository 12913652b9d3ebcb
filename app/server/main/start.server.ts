import http, { type Server } from 'node:http'
import type { ServerBuild } from 'react-router'
import { settlePendingMail, warnIfNoMailer } from '~/server/accounts/email.server'
import { schedulePurges } from '~/server/accounts/purge.server'
import { scheduleDeadlineReminders } from '~/server/accounts/deadline-reminders.server'
import { recoverInterruptedGenerations, stopAllGenerations } from '~/server/generation/job/jobs.server'
import { chooseCluster, cluster } from '~/server/cluster/cluster.server'
import { createApp } from '~/server/http/app.server'
import { requestSender } from '~/server/accounts/api-auth.server'
import { sentences } from '~/shared/variant-limits'
import { prisma } from '~/server/platform/db.server'
import { getEnv, settingsInForce } from '~/server/platform/env.server'
import { startWorkPool, stopWorkPool } from '~/server/platform/work-pool.server'
import { errorDetails, log } from '~/server/platform/logger.server'

const SHUTDOWN_GRACE_MS = 10_000

/** Serves the app until SIGTERM or SIGINT, then shuts down without dropping acknowledged work. */
export async function startServer(build: ServerBuild) {
  const env = getEnv()
  // One process or replicas, from the configuration, before anything counts, publishes or recovers (decision 046).
  const shared = chooseCluster(env)
  warnIfNoMailer()
  // Loads its parsers and fonts while the server answers; an early task waits for them (decision 041).
  startWorkPool().catch((error) => log('error', 'work.start-failed', errorDetails(error)))
  // Crash leftovers are failed and refunded before anyone asks; with replicas, a silent one's too (decision 036).
  await recoverInterruptedGenerations()
  // Before it runs anything: Stops and followers from the other replicas reach it from then on.
  await shared.bus.connect()
  await shared.recovery.join(async () => {
    await recoverInterruptedGenerations()
    await shared.streams.purge()
  })
  schedulePurges()
  // ICU's sentence rules take about 25 ms to load: here, not in the first request that splits a text.
  for (const sentence of sentences('Loaded. Ready.')) void sentence
  let stopping = false
  const app = createApp({ build, env, isStopping: () => stopping, sender: requestSender })
  const server = http.createServer(
    {
      // Checked every second (Node's default is 30 s).
      headersTimeout: env.HEADERS_TIMEOUT_MS,
      requestTimeout: env.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 1000,
    },
    app,
  )
  server.maxConnections = env.MAX_CONNECTIONS
  const listenFailed = (error: NodeJS.ErrnoException) => {
    log('error', 'server.listen-failed', { message: whyNotListening(error, env.PORT), ...errorDetails(error) })
    process.exit(1)
  }
  server.once('error', listenFailed)
  server.listen(env.PORT, env.HOST, () => {
    server.off('error', listenFailed)
    scheduleDeadlineReminders()
    const settings = settingsInForce(env)
    log('info', 'server.listening', {
      message: `Impact Narrative Studio is ready at ${settings.url} (listening on ${settings.listen}); database: ${settings.database}; narratives written by ${settings.writer}; mail: ${settings.mail}; sign-ups ${settings.signups}.`,
      ...settings,
    })
  })
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    shutDown(server, signal).catch((error) => {
      log('error', 'server.stop-failed', errorDetails(error))
      process.exit(1)
    })
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

/** A port in use or forbidden is a setting to change, and the message says which. */
function whyNotListening(error: NodeJS.ErrnoException, port: number) {
  if (error.code === 'EADDRINUSE') return `Port ${port} is already in use by another program: stop it, or set PORT to a free port.`
  if (error.code === 'EACCES') return `This user may not listen on port ${port}: set PORT to 1024 or above.`
  return `The server could not listen on port ${port}.`
}

async function shutDown(server: Server, signal: string) {
  log('info', 'server.stopping', { signal })
  // Stop accepting; idle keep-alive connections close, requests in flight get their answers.
  const drained = new Promise((resolve) => server.close(resolve))
  // Running generations are stopped and saved first, which also ends their event streams.
  await stopAllGenerations()
  await cluster().recovery.leave()
  await cluster().bus.disconnect()
  await Promise.race([Promise.all([drained, settlePendingMail()]), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS))])
  server.closeAllConnections()
  // After the requests in flight: their files, drafts and claims are the pool's work.
  await stopWorkPool()
  await prisma.$disconnect()
  process.exit(0)
}
