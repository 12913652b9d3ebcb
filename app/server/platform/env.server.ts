import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { DATABASE_URL_RULE, DEFAULT_DATABASE_URL, databaseTarget } from '~/server/platform/database-url.server'
import { isKnownLocale } from '~/shared/locale'

const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value)
const optionalString = z.preprocess(emptyAsUnset, z.string().optional())
const integer = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(emptyAsUnset, z.coerce.number().int().min(min).max(max).default(fallback))

const EnvSchema = z.object({
  NODE_ENV: z.preprocess(emptyAsUnset, z.enum(['development', 'production', 'test']).default('production')),
  PORT: integer(3000, 1, 65535),
  // The address to listen on; unset, every interface (what a container needs). 127.0.0.1 behind a proxy on the host.
  HOST: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .regex(/^(\[?[0-9a-fA-F:.]+\]?|[a-zA-Z0-9.-]+)$/, 'must be an address such as 127.0.0.1 or ::1, or a host name')
      .transform((host) => host.replace(/^\[(.*)\]$/, '$1'))
      .optional(),
  ),
  DATABASE_URL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .regex(/^(file:|postgres(ql)?:\/\/)/, DATABASE_URL_RULE)
      .default(DEFAULT_DATABASE_URL),
  ),
  // Connections each process keeps to PostgreSQL (pg's default); unused with SQLite's one connection.
  DATABASE_POOL_SIZE: integer(10, 1, 100),
  SESSION_SECRET: optionalString,
  APP_ORIGIN: z.preprocess(emptyAsUnset, z.string().url().optional()),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z.preprocess(emptyAsUnset, z.string().url().optional()),
  OPENAI_MODEL: z.preprocess(emptyAsUnset, z.string().default('gpt-4')),
  OPENAI_TIMEOUT_MS: integer(60_000, 100),
  GENERATION_TIMEOUT_MS: integer(5 * 60_000, 1000),
  SMTP_URL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.preprocess(emptyAsUnset, z.string().default('Impact Narrative Studio <no-reply@localhost>')),
  // Shown on the legal pages; a plain address check, so single-label hosts like localhost pass.
  CONTACT_EMAIL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')
      .default('support@localhost'),
  ),
  // closed: only the first account may sign itself up; administrators invite everyone else.
  SIGNUPS: z.preprocess(emptyAsUnset, z.enum(['open', 'closed']).default('open')),
  DAILY_NARRATIVE_LIMIT: integer(10, 0),
  // Answers and variants a model writes for one person a day; the offline drafter's cost nothing.
  DAILY_VARIANT_LIMIT: integer(50, 0),
  // Fifty people using their whole allowance: a day's spend an operator can foresee (docs/operations.md).
  MAX_DAILY_GENERATIONS: integer(500, 0),
  MAX_SAVED_NARRATIVES: integer(1000, 1),
  MAX_CREATES_PER_MINUTE: integer(30, 1),
  MAX_DOWNLOADS_PER_MINUTE: integer(30, 1),
  TRUST_PROXY: integer(0, 0, 10),
  // Time to send the headers, and the whole request; the answer may take longer (docs/operations.md).
  HEADERS_TIMEOUT_MS: integer(10_000, 1000),
  REQUEST_TIMEOUT_MS: integer(30_000, 1000),
  // Connections held at once; past it a new one is closed at once. Each open event stream holds one.
  MAX_CONNECTIONS: integer(1000, 10),
  // HSTS for the subdomains of APP_ORIGIN's host too: only when every one of them is served over HTTPS.
  HSTS_INCLUDE_SUBDOMAINS: z.preprocess(emptyAsUnset, z.enum(['true', 'false']).default('false')),
  // The Word and PDF files' date format and paper size; unset, each reader's Accept-Language decides.
  DOCUMENT_LOCALE: z.preprocess(emptyAsUnset, z.string().refine(isKnownLocale, 'must be a language tag such as en-GB').optional()),
  DOCUMENT_PAPER: z.preprocess(emptyAsUnset, z.enum(['letter', 'a4']).optional()),
  // A line in the downloads' footer naming the product; off, a funder reads only the narrative.
  DOCUMENT_CREDIT: z.preprocess(emptyAsUnset, z.enum(['true', 'false']).default('false')),
})

export type Env = ReturnType<typeof loadEnv>

function loadEnv(source: NodeJS.ProcessEnv) {
  const result = EnvSchema.safeParse(source)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new Error(`Invalid environment configuration:\n${problems.join('\n')}`)
  }
  const env = result.data
  const database = databaseTarget(env.DATABASE_URL)
  // The outbox (and, with SQLite, the generated session secret) live beside the database file.
  const dataDir = database.kind === 'sqlite' ? path.dirname(database.file) : path.resolve('data')
  const problems = [
    env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS && '  HEADERS_TIMEOUT_MS: must not be more than REQUEST_TIMEOUT_MS',
    ...sharedDatabaseProblems(env, database.kind),
  ].filter(Boolean)
  if (problems.length) throw new Error(`Invalid environment configuration:\n${problems.join('\n')}`)
  return {
    ...env,
    hstsIncludeSubdomains: env.HSTS_INCLUDE_SUBDOMAINS === 'true',
    documentCredit: env.DOCUMENT_CREDIT === 'true',
    database,
    dataDir,
    appOrigin: (env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    sessionSecrets: env.SESSION_SECRET ? env.SESSION_SECRET.split(',').map((s) => s.trim()) : [readOrCreateSecret(dataDir)],
  }
}

/** Replicas share PostgreSQL: one's generated secret would sign cookies the others refuse, its outbox serve it alone. */
function sharedDatabaseProblems(env: z.infer<typeof EnvSchema>, kind: 'sqlite' | 'postgres') {
  if (kind === 'sqlite') return []
  const why = 'is required with a PostgreSQL DATABASE_URL, so that every replica shares it (docs/operations.md)'
  return [!env.SESSION_SECRET && `  SESSION_SECRET: ${why}`, !env.SMTP_URL && `  SMTP_URL: ${why}`]
}

// Generated once and kept beside the database, so sessions survive restarts with no configuration.
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret')
  fs.mkdirSync(dataDir, { recursive: true })
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return fs.readFileSync(file, 'utf8').trim()
}

let cached: Env | undefined

export function getEnv(): Env {
  cached ??= loadEnv(process.env)
  return cached
}

export function resetEnvForTests() {
  cached = undefined
}

/** A key or a server of its own names a model to write with; with neither, the offline drafter writes. */
export const modelConfigured = (env: Env) => Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL)

/** Where mail waits without an SMTP server, beside the database: data/outbox in a checkout, /data/outbox in the container. */
export const outboxOf = (dataDir: string) => path.join(dataDir, 'outbox')

/** The settings in force, for the start-up line: hosts and names only, never a URL's password or a key. */
export function settingsInForce(env: Env) {
  // Everything before the last "@" goes first (a password may hold "/" or "@" unencoded), and a URL the
  // WHATWG parser refuses (pg's socket form "postgres://u:p@/db?host=/run/pg") is named by its scheme alone.
  const where = (url: string) => {
    const scheme = /^[a-z]+:\/\//i.exec(url)?.[0] ?? ''
    try {
      const { protocol, host, pathname } = new URL(scheme + url.slice(url.lastIndexOf('@') + 1 || scheme.length))
      return `${protocol}//${host}${pathname === '/' ? '' : pathname}`
    } catch {
      return `${scheme}(address not shown)`
    }
  }
  return {
    url: env.appOrigin,
    listen: `${env.HOST ?? 'every interface'}, port ${env.PORT}`,
    database: env.database.kind === 'sqlite' ? `SQLite file ${env.database.file}` : `PostgreSQL ${where(env.database.url)}`,
    writer: modelConfigured(env)
      ? `the model ${env.OPENAI_MODEL} at ${env.OPENAI_BASE_URL ? where(env.OPENAI_BASE_URL) : 'OpenAI'}`
      : 'the offline drafter (no model configured)',
    mail: env.SMTP_URL ? `SMTP ${where(env.SMTP_URL)}` : `files in ${outboxOf(env.dataDir)}`,
    signups: env.SIGNUPS,
  }
}
