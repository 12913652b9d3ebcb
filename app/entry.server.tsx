import { Writable } from 'node:stream'
import { renderToPipeableStream } from 'react-dom/server'
import { type EntryContext, type HandleErrorFunction, isRouteErrorResponse, type RouterContextProvider, ServerRouter } from 'react-router'
import { cspNonceContext, requestIdContext } from '~/server/http/router-context.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { NonceContext } from '~/hooks/use-nonce'
import { RequestIdContext } from '~/hooks/use-request-id'

export const streamTimeout = 5_000

/**
 * Pages are sent whole: with no deferred data, streaming the shell gains nothing, and each streamed
 * piece cost a gzip and socket round of its own (1 ms of CPU per page against 0.1 ms; docs/PERFORMANCE.md).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(cspNonceContext)
  return new Promise<Response>((resolve, reject) => {
    let failed = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RequestIdContext.Provider value={loadContext.get(requestIdContext)}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </RequestIdContext.Provider>
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
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return
  log('error', 'request.error', {
    path: new URL(request.url).pathname,
    ...errorDetails(error),
    stack: error instanceof Error ? error.stack : undefined,
  })
}
