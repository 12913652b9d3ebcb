import { createRequestHandler } from '@react-router/express'
import compression from 'compression'
import express, { type ErrorRequestHandler, type RequestHandler } from 'express'
import { RouterContextProvider, type ServerBuild } from 'react-router'
import { limitBodySize } from '~/server/edge/body-limit.server'
import { refuseCrossSite } from '~/server/edge/cross-site.server'
import { getCspNonce, securityHeaders } from '~/server/edge/security-headers.server'
import { accessLog } from '~/server/http/access-log.server'
import { limitBodiesPerPerson, type SenderOf } from '~/server/http/body-rate-limit.server'
import { refuseWrongMethods } from '~/server/http/resource-methods.server'
import { cspNonceContext, requestIdContext } from '~/server/http/router-context.server'
import { staticAssets } from '~/server/http/static-assets.server'
import type { Env } from '~/server/platform/env.server'
import { errorDetails, log } from '~/server/platform/logger.server'
import { getRequestContext, requestContext } from '~/server/platform/request-context.server'

/** Refusals come before any body is read (docs/decisions/002-custom-express-server.md). */
type AppParts = { build: ServerBuild; env: Env; isStopping: () => boolean; sender: SenderOf }

export function createApp({ build, env, isStopping, sender }: AppParts) {
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', env.TRUST_PROXY)
  app.use(defaultHost(new URL(env.appOrigin).host))
  app.use((_req, res, next) => {
    // While stopping, each answer closes its connection, so keep-alive clients let the server drain.
    if (isStopping()) res.set('Connection', 'close')
    next()
  })
  app.use(
    requestContext(),
    accessLog(),
    securityHeaders({ https: env.appOrigin.startsWith('https:'), includeSubDomains: env.hstsIncludeSubdomains }),
  )
  // A cross-site post counts against nobody's allowance; a sender past theirs is refused before the cap reads a byte.
  app.use(refuseCrossSite(), limitBodiesPerPerson(sender), limitBodySize())
  app.use(staticAssets())
  app.use(compressExceptEventStreams())
  app.use(refuseWrongMethods(build))
  app.all(
    '*',
    createRequestHandler({
      build,
      getLoadContext: (_req, res) =>
        new RouterContextProvider(
          new Map([
            [cspNonceContext, getCspNonce(res)],
            [requestIdContext, getRequestContext()?.requestId ?? ''],
          ]),
        ),
    }),
  )
  app.use(lastResort)
  return app
}

// An HTTP/1.0 request may come without a Host header (haproxy's default health check sends none), and
// React Router builds each request's URL from it: such a request is for this site, under its own name.
function defaultHost(host: string): RequestHandler {
  return (req, _res, next) => {
    req.headers.host ||= host
    next()
  }
}

// Event streams are never compressed: each piece must reach the client at once.
function compressExceptEventStreams() {
  return compression({
    level: 1,
    filter: (req, res) => !/^text\/event-stream/.test(String(res.getHeader('Content-Type'))) && compression.filter(req, res),
  })
}

// A request already refused (413 mid-body) can still fail inside React Router: nothing more to send.
const lastResort: ErrorRequestHandler = (error, _req, res, _next) => {
  if (res.headersSent) return
  const status = Number(error?.status)
  if (status >= 400 && status < 500) return res.status(status).json({ error: status === 404 ? 'Not found' : 'Bad request' })
  log('error', 'server.error', errorDetails(error))
  res.status(500).json({ error: 'Internal server error' })
}
