// `npm start`: the production server. Vite builds this file, with React Router's server build, into
// build/server/index.js. Pending migrations are applied before the app (and its database) is loaded.
import { applyPendingMigrations } from '~/server/platform/migrations.server'
import { getEnv } from '~/server/platform/env.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { keepDataPrivate } from '~/server/platform/private-files.server'
import { startWorkPool } from '~/server/platform/work-pool.server'

// React and React Router read NODE_ENV when they load: production unless told otherwise.
process.env.NODE_ENV ??= 'production'
// A promise nobody awaited failed: log it for the operator. By default Node would exit, taking every
// running generation with it, for what is at worst one failed request.
process.on('unhandledRejection', (reason) => log('error', 'process.unhandled_rejection', errorDetails(reason)))
// The environment is validated first: a bad setting stops start-up before anything is touched.
const { database, dataDir } = getEnv()
keepDataPrivate(dataDir, database.kind === 'sqlite' ? database.file : undefined)
// The work pool's worker warms up on its own thread while the migrations hold this one (decision 041).
startWorkPool().catch(() => {}) // the same start as startServer's, which logs a failure
await applyPendingMigrations(database)

const [{ startServer }, build] = await Promise.all([import('~/server/main/start.server'), import('virtual:react-router/server-build')])
await startServer(build)
