import type { AppServer } from './app-server'
import { until } from './until'

/** One JSON line of the app's log (app/server/platform/logger.server.ts). */
export type LogLine = { time: string; level: string; event: string; requestId?: string; userId?: string; [field: string]: unknown }

/** Every JSON line the running app has printed so far. */
export function logLines(app: AppServer): LogLine[] {
  return app
    .logs()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
}

/**
 * The lines logged under one request id, once `event` is among them: the app writes to a pipe, so a
 * line can arrive a moment after the answer it belongs to.
 */
export async function linesOfRequest(app: AppServer, requestId: string, event = 'http.request'): Promise<LogLine[]> {
  return until(
    () => {
      const lines = logLines(app).filter((line) => line.requestId === requestId)
      return lines.some((line) => line.event === event) && lines
    },
    { what: `a ${event} line for request ${requestId}`, details: app.logs },
  )
}

/** The one `event` line logged under the request id the answer carried (X-Request-Id). */
export async function eventOf(app: AppServer, response: { headers: Headers }, event: string): Promise<LogLine> {
  const requestId = response.headers.get('X-Request-Id')
  if (!requestId) throw new Error('the answer carries no X-Request-Id')
  const lines = (await linesOfRequest(app, requestId, event)).filter((line) => line.event === event)
  expect(lines).toHaveLength(1)
  return lines[0]
}
