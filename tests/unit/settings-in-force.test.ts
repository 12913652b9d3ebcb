import { getEnv, resetEnvForTests, settingsInForce } from '~/server/platform/env.server'

// The start-up line names where the database, the model and the mail are: never a password or key,
// whatever shape of URL an operator writes.

const KEYS = ['DATABASE_URL', 'SESSION_SECRET', 'SMTP_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const
const saved = Object.fromEntries(KEYS.map((key) => [key, process.env[key]]))

afterEach(() => {
  for (const key of KEYS) {
    if (saved[key] === undefined) delete process.env[key]
    else process.env[key] = saved[key]
  }
  resetEnvForTests()
})

function settingsWith(env: Partial<Record<(typeof KEYS)[number], string>>) {
  Object.assign(process.env, { SESSION_SECRET: 'a-session-secret-of-enough-length-0123456789', ...env })
  resetEnvForTests()
  return JSON.stringify(settingsInForce(getEnv()))
}

describe('the settings in force, as the start-up line tells them', () => {
  it.each([
    [
      'postgres://app:s3cret-pw@db.internal:5432/narratives?sslmode=require&password=s3cret-pw',
      'PostgreSQL postgres://db.internal:5432/narratives',
    ],
    // pg's socket form, which the WHATWG URL parser refuses.
    ['postgresql://app:s3cret-pw@/narratives?host=/run/postgresql', 'PostgreSQL postgresql://'],
  ])('names the database of %s without its password', (url, shown) => {
    const line = settingsWith({ DATABASE_URL: url, SMTP_URL: 'smtp://mailer:p4ss/w0rd@mail.example.org:587' })
    expect(line).toContain(shown)
    expect(line).not.toContain('s3cret-pw')
    expect(line).toContain('SMTP smtp://mail.example.org:587')
    expect(line).not.toContain('p4ss')
  })

  it('names the model and its server, never its key', () => {
    const line = settingsWith({ OPENAI_API_KEY: 'sk-test-key-123', OPENAI_BASE_URL: 'http://llm.internal:8080/v1' })
    expect(line).toContain('the model')
    expect(line).toContain('http://llm.internal:8080/v1')
    expect(line).not.toContain('sk-test-key-123')
  })
})
