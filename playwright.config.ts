import crypto from 'node:crypto'
import { defineConfig } from '@playwright/test'
import { SCREENSHOT_CLOCK, SCREENSHOT_ORIGIN, SCREENSHOT_PORT } from './tests/e2e/screenshot-app'
import { START_ARGS } from './tests/setup/app-server'

const APP_PORT = 3300
const OFFLINE_APP_PORT = 3301
const SMTP_PORT = 2526
const MODEL_PORT = 4010
const E2E_DIR = 'tests/.tmp/e2e'

function app(port: number, name: string, env: Record<string, string> = {}, nodeArgs: string[] = []) {
  return {
    // The app's log is kept, so the teardown can check that no secret ever reached it.
    command: `rm -rf ${E2E_DIR}/${name} && mkdir -p ${E2E_DIR}/${name} && node ${[...nodeArgs, ...START_ARGS].join(' ')} 2>&1 | tee ${E2E_DIR}/${name}/app.log`,
    url: `http://localhost:${port}/resources/healthcheck`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      DATABASE_URL: `file:./${E2E_DIR}/${name}/app.db`,
      APP_ORIGIN: `http://localhost:${port}`,
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      SESSION_SECRET: 'e2e-secret-0123456789abcdef0123456789abcdef',
      // Each test worker presents its own client address (see `use` below), as behind a proxy.
      TRUST_PROXY: '1',
      ...env,
    },
  }
}

// Everything runs on loopback: the built app, a real SMTP sink, and (for generation) the fake model.
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './tests/e2e/global-setup.ts',
  globalTeardown: './tests/e2e/global-teardown.ts',
  projects: [
    { name: 'e2e', testIgnore: /screenshots\.spec\.ts/ },
    {
      // Each main page at a desktop and a phone width, compared with its picture in docs/screenshots,
      // which `npm run screenshots` refreshes (docs/decisions/029-layout-seen-as-people-see-it.md).
      name: 'screenshots',
      testMatch: /screenshots\.spec\.ts/,
      snapshotPathTemplate: 'docs/screenshots/{arg}{ext}',
      use: { baseURL: SCREENSHOT_ORIGIN, timezoneId: 'UTC', locale: 'en-US', contextOptions: { reducedMotion: 'reduce' } },
      expect: {
        toHaveScreenshot: { animations: 'disabled', caret: 'hide', scale: 'css', threshold: 0.2, maxDiffPixels: 50 },
      },
    },
  ],
  use: {
    baseURL: `http://localhost:${APP_PORT}`,
    trace: 'retain-on-failure',
    // This file is loaded once per worker: each worker is a different client for the rate limits.
    extraHTTPHeaders: { 'X-Forwarded-For': `198.51.100.${crypto.randomInt(1, 255)}` },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: [
    {
      command: `rm -rf ${E2E_DIR}/mail && node --import tsx tests/fixtures/smtp-sink.ts --port ${SMTP_PORT} --dir ${E2E_DIR}/mail`,
      port: SMTP_PORT,
      reuseExistingServer: false,
    },
    {
      command: `node --import tsx tests/fixtures/fake-openai.ts --port ${MODEL_PORT} --first-token-ms 200 --piece-ms 8`,
      port: MODEL_PORT,
      reuseExistingServer: false,
    },
    // The app with a model (the fake one), and the app on its embedded defaults (the offline drafter).
    app(APP_PORT, 'model', { OPENAI_BASE_URL: `http://127.0.0.1:${MODEL_PORT}/v1`, OPENAI_API_KEY: 'e2e-key' }),
    app(OFFLINE_APP_PORT, 'offline'),
    // Last: its clock starts with it, and the global setup fills it before any other work.
    app(SCREENSHOT_PORT, 'screens', { FIXED_CLOCK: SCREENSHOT_CLOCK }, ['--import', './tests/fixtures/fixed-clock.ts']),
  ],
})
