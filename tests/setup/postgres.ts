import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import net from 'node:net'

// A throwaway PostgreSQL server for the tests that run on PostgreSQL: Debian's own (the `postgresql`
// package), initialised in a temporary folder and listening on loopback only, gone with the run.

export type PostgresServer = { url(database: string): string; stop(): void }

function binDir() {
  const root = '/usr/lib/postgresql'
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : []
  if (!versions.length) throw new Error("PostgreSQL's server is not installed: run 'apt-get install postgresql'")
  return path.join(root, versions[0], 'bin')
}

// initdb refuses to run as root: as root, the server runs as Debian's postgres user.
function run(command: string, args: string[]) {
  const bin = path.join(binDir(), command)
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]
  execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] })
}

export async function startPostgres(dir: string): Promise<PostgresServer> {
  fs.mkdirSync(dir, { recursive: true })
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir])
  const data = path.join(dir, 'data')
  const port = await freePort()
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  // Durability is not what these tests measure: fsync off makes each template copy cheap.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=400`
  run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start'])
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
  }
}

/** CREATE DATABASE name TEMPLATE template: a migrated database of its own in milliseconds (unless it exists). */
export async function copyDatabase(adminUrl: string, template: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (!rowCount) await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`)
  } finally {
    await client.end()
  }
}

/** Set by tests/setup/vitest-env.ts in a run on PostgreSQL: where the run's server and template are. */
export function testPostgres(): { server: string; template: string } | null {
  return process.env.TEST_POSTGRES ? JSON.parse(process.env.TEST_POSTGRES) : null
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}
