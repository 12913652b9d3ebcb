import fs from 'node:fs'
import { SECRETS_USED_IN_E2E } from './helpers'
import { SCREENSHOT_ACCOUNTS } from './screenshot-app'

// After a full run: no password, token, reset link, cookie or key may appear in the apps' logs.
const FORBIDDEN_PATTERNS = [/reset-password\?token=/, /__session=/, /__toast=/, /Bearer\s+\S/, /"token"\s*:/, /"password"\s*:/]

export default function globalTeardown() {
  const files = ['model', 'offline', 'screens'].map((name) => `tests/.tmp/e2e/${name}/app.log`)
  const logs = files.map((file) => fs.readFileSync(file, 'utf8'))
  if (!logs.some((log) => log.includes('"event":"auth.login"')))
    throw new Error('The apps logged no sign-in: the log check would prove nothing')
  for (const [index, log] of logs.entries()) {
    const file = files[index]
    for (const secret of [...SECRETS_USED_IN_E2E, ...Object.values(SCREENSHOT_ACCOUNTS).map((account) => account.password)]) {
      if (log.includes(secret)) throw new Error(`${file} contains a secret: ${secret.slice(0, 4)}…`)
    }
    for (const pattern of FORBIDDEN_PATTERNS) {
      if (pattern.test(log)) throw new Error(`${file} matches ${pattern}`)
    }
  }
}
