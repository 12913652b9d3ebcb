// `npm start`: apply pending migrations with Prisma's own command, then serve.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'migrate', 'deploy'], {
  stdio: ['ignore', 'ignore', 'inherit'],
})
await import('../server.js')
