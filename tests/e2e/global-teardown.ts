import fs from 'node:fs'
import { SECRETS_USED_IN_E2E } from './helpers'

// After a full run: no password, token, reset link, cookie or key may appear in the apps' logs.
const FORBIDDEN_PATTERNS = [
  /reset-password\?token=/,
  /__session=/,
  /__toast=/,
  /Bearer\s+\S/,
  /"token"\s*:/,
  /"password"\s*:/,
]

export default function globalTeardown() {
  for (const name of ['model', 'offline']) {
    const file = `tests/.tmp/e2e/${name}/app.log`
    const log = fs.readFileSync(file, 'utf8')
    if (!log.includes('"event":"auth.login"')) throw new Error(`${file} has no sign-in events: the log check would prove nothing`)
    for (const secret of SECRETS_USED_IN_E2E) {
      if (log.includes(secret)) throw new Error(`${file} contains a secret: ${secret.slice(0, 4)}…`)
    }
    for (const pattern of FORBIDDEN_PATTERNS) {
      if (pattern.test(log)) throw new Error(`${file} matches ${pattern}`)
    }
  }
}
