import { getEnv } from '~/server/platform/env.server'

const env = getEnv()

/** Every cookie the app sets is signed with the session secrets; secure only over HTTPS, so a plain-HTTP self-hosted install on a LAN still works. */
export const cookieDefaults = {
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  secrets: env.sessionSecrets,
  secure: env.appOrigin.startsWith('https:'),
}
