import os from 'node:os'
import { defineConfig } from 'vitest/config'

// TEST_DATABASE=postgres runs the integration tests on a throwaway PostgreSQL (tests/setup/postgres.ts),
// the built app's included: every query of the app, on the other database it supports. The tests of
// SQLite itself run on SQLite alone, and tests named *.postgres.test.ts on PostgreSQL alone.
const onPostgres = process.env.TEST_DATABASE === 'postgres'
const SQLITE_ONLY = [
  // SQLite's settings, its migrations, its one connection, and its file's durability, backup and restore.
  'sqlite-settings',
  'migrations',
  'transactions',
  'durability',
  // The files SQLite and its outbox keep (their modes, the outbox's warning: PostgreSQL requires SMTP).
  'http-server',
  'server-bounds',
].map((name) => `tests/integration/${name}.test.ts`)

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    globals: true,
    include: onPostgres ? ['tests/integration/**/*.test.ts'] : ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    exclude: onPostgres ? SQLITE_ONLY : ['**/*.postgres.test.ts'],
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/vitest-env.ts'],
    // The app logs JSON lines; show them only for tests that fail.
    silent: 'passed-only',
    testTimeout: 20_000,
    // In CI, files and the tests in each run in an order of their own each time: none may need another's effects.
    sequence: { shuffle: Boolean(process.env.CI) },
    hookTimeout: 60_000,
    // Vitest's default, one fewer file at once than cores, runs one at a time on two cores; most integration files
    // wait on a started app, a timer or a child process, so two at once take 456 s where one at a time took 832 s.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
})
