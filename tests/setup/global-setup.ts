import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { copyDatabase, startPostgres } from './postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string
    /** With TEST_DATABASE=postgres: the server's URL without a database name, and the template's name. */
    postgres?: { server: string; template: string }
  }
}

const POSTGRES_TEMPLATE = 'studio_template'

// Migrate one database per run with Prisma's own command; each test worker copies it. The SQLite
// template is made on every run (some tests read it whichever database the rest use).
export default async function setup(project: TestProject) {
  const dir = path.resolve('tests/.tmp', `run-${process.pid}`)
  const template = path.join(dir, 'template.db')
  fs.mkdirSync(dir, { recursive: true })
  migrate(`file:${template}`)
  project.provide('templateDatabase', template)
  if (process.env.TEST_DATABASE !== 'postgres') return () => fs.rmSync(dir, { recursive: true, force: true })

  // In the system's temporary folder: as root the server runs as the postgres user, who may not be
  // allowed into the checkout's folder (under /root, say).
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ins-postgres-'))
  const server = await startPostgres(pgDir)
  await copyDatabase(server.url('postgres'), 'template0', POSTGRES_TEMPLATE)
  migrate(server.url(POSTGRES_TEMPLATE))
  project.provide('postgres', { server: server.url(''), template: POSTGRES_TEMPLATE })
  return () => {
    server.stop()
    fs.rmSync(pgDir, { recursive: true, force: true })
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

function migrate(url: string) {
  execFileSync('npx', ['prisma', 'migrate', 'deploy'], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}
