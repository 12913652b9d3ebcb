import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string
  }
}

// Migrate one database per run with Prisma's own command; each test worker copies it.
export default function setup(project: TestProject) {
  const dir = path.resolve('tests/.tmp', `run-${process.pid}`)
  const template = path.join(dir, 'template.db')
  fs.mkdirSync(dir, { recursive: true })
  execFileSync('npx', ['prisma', 'migrate', 'deploy'], {
    env: { ...process.env, DATABASE_URL: `file:${template}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  project.provide('templateDatabase', template)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
