import { Writable } from 'node:stream'
import type { AppLoadContext, EntryContext, HandleErrorFunction } from '@remix-run/node'
import { isRouteErrorResponse, RemixServer } from '@remix-run/react'
import { renderToPipeableStream } from 'react-dom/server'
import { prisma } from './utils/db.server'
import { warnIfNoMailer } from './utils/email.server'
import { recoverInterruptedGenerations, stopAllGenerations } from './utils/generations.server'
import { getEnv } from './utils/env.server'
import { errorDetails, log } from './utils/logger.server'
import { BODY_LIMIT_BYTES, checkRequest, tooLarge } from './utils/edge.server'
import { NonceContext } from './utils/nonce'
import { requestContextStorage } from './utils/request-context.server'

export const streamTimeout = 5_000

warnIfNoMailer()

/** What the custom server (server.js) needs from the compiled app. */
export const server = {
  env: getEnv(),
  requestContextStorage,
  checkRequest,
  bodyLimitBytes: BODY_LIMIT_BYTES,
  tooLarge,
  /** Before listening: rows left generating by a crash are marked failed and refunded. */
  start: recoverInterruptedGenerations,
  /** On SIGTERM, first: running generations are stopped and saved, which also ends their streams. */
  stopGenerations: stopAllGenerations,
  /** On SIGTERM, last, once in-flight requests are answered. */
  closeDatabase: () => prisma.$disconnect(),
}

/**
 * Pages are sent whole, in one write: every loader has finished before rendering starts (no deferred
 * data), so streaming the shell gains nothing, and each streamed piece cost a gzip and socket round
 * of its own (1 ms of CPU per page against 0.1 ms in one piece; docs/PERFORMANCE.md).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.cspNonce === 'string' ? loadContext.cspNonce : ''
  return new Promise<Response>((resolve, reject) => {
    let failed = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          const chunks: Buffer[] = []
          const body = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk)
              done()
            },
            final(done) {
              clearTimeout(timeout)
              responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
              resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: failed ? 500 : responseStatusCode }))
              done()
            },
          })
          pipe(body)
        },
        onShellError(error: unknown) {
          clearTimeout(timeout)
          reject(error)
        },
        onError(error: unknown) {
          failed = true
          log('error', 'render.error', errorDetails(error))
        },
      },
    )
    const timeout = setTimeout(abort, streamTimeout + 1000)
  })
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests and Remix's own 4xx answers (e.g. 405 for a method a route lacks) are not errors.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return
  log('error', 'request.error', { path: new URL(request.url).pathname, ...errorDetails(error), stack: error instanceof Error ? error.stack : undefined })
}
