import { getRequestContext } from '~/server/platform/request-context.server'

type Level = 'info' | 'warn' | 'error'

// Callers pass ids and outcomes, never secrets: no passwords, tokens, reset links, cookies or keys.
export function log(level: Level, event: string, fields: Record<string, unknown> = {}) {
  const context = getRequestContext()
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    event,
    ...(context ? { requestId: context.requestId } : {}),
    ...fields,
  })
  if (level === 'info') console.log(line)
  else console.error(line)
}

export function errorDetails(error: unknown) {
  return error instanceof Error ? { error: error.message, name: error.name } : { error: String(error) }
}
