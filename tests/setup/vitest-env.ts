import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { inject } from 'vitest'
import { startSmtpSink, type SmtpSink } from '../fixtures/smtp-sink'
import { copyDatabase } from './postgres'

// Runs in every test worker before any app module is imported: a migrated database of the worker's
// own (a SQLite file, or with TEST_DATABASE=postgres a PostgreSQL database copied from the run's
// template), a real SMTP sink for outgoing mail, and a known environment.
const template = inject('templateDatabase')
const postgres = inject('postgres')
const worker = `worker-${crypto.randomUUID()}`
const dataDir = path.join(path.dirname(template), worker)
fs.mkdirSync(dataDir, { recursive: true })
fs.copyFileSync(template, path.join(dataDir, 'app.db'))
if (postgres) {
  await copyDatabase(`${postgres.server}postgres`, postgres.template, worker)
  process.env.TEST_POSTGRES = JSON.stringify(postgres)
}

declare global {
  var smtpSink: SmtpSink
}
globalThis.smtpSink = await startSmtpSink()

Object.assign(process.env, {
  DATABASE_URL: postgres ? `${postgres.server}${worker}` : `file:${path.join(dataDir, 'app.db')}`,
  SESSION_SECRET: 'test-secret-0123456789abcdef0123456789abcdef',
  APP_ORIGIN: 'https://narratives.example.org',
  SMTP_URL: globalThis.smtpSink.url,
  MAIL_FROM: 'Impact Narrative Studio <no-reply@example.org>',
  DAILY_NARRATIVE_LIMIT: '10',
})
for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL', 'TRUST_PROXY']) delete process.env[key]

// A file whose code ran work in the pool leaves its threads running: they would keep the test process alive.
afterAll(async () => {
  const { stopWorkPool } = await import('~/server/platform/work-pool.server')
  await stopWorkPool()
})
