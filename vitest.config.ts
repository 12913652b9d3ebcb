import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    globals: true,
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/vitest-env.ts'],
    // The app logs JSON lines; show them only for tests that fail.
    silent: 'passed-only',
    testTimeout: 20_000,
    // In CI, files and the tests in each run in an order of their own each time: none may need another's effects.
    sequence: { shuffle: Boolean(process.env.CI) },
    hookTimeout: 60_000,
  },
})
