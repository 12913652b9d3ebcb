// `npm start`: the production server. Vite builds this file, with React Router's server build, into
// build/server/index.js. Pending migrations are applied before the app (and its database) is loaded.
import { applyPendingMigrations } from '~/server/platform/migrations.server'
import { DEFAULT_DATABASE_URL, resolveDatabaseFile } from '~/server/platform/database-url.server'

// React and React Router read NODE_ENV when they load: production unless told otherwise.
process.env.NODE_ENV ??= 'production'
applyPendingMigrations(resolveDatabaseFile(process.env.DATABASE_URL || DEFAULT_DATABASE_URL))

const [{ startServer }, build] = await Promise.all([
  import('~/server/http/start.server'),
  import('virtual:react-router/server-build'),
])
await startServer(build)
