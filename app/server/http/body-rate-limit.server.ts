import type { Request, RequestHandler } from 'express'
import { getApiUser, getOptionalUser } from '~/server/accounts/auth.server'
import { getBearerToken } from '~/server/http/api.server'
import { clientAddress, enforceBodyRateLimit, RateLimitError } from '~/server/edge/rate-limit.server'
import { refuse } from '~/server/edge/refuse.server'

/**
 * Every request with a body counts against its sender's allowance before anything reads the body, on
 * every route alike (docs/decisions/025). The user is looked up as the route will (once a request).
 */
export function limitBodiesPerPerson(): RequestHandler {
  return (req, res, next) => {
    if (!carriesBody(req)) return next()
    personOf(req)
      .then(enforceBodyRateLimit)
      .then(
        () => next(),
        (error: unknown) => {
          if (!(error instanceof RateLimitError)) return next(error)
          res.set('Retry-After', String(error.retryAfterSeconds))
          refuse(req, res, { status: 429, error: error.message.replace(/\.$/, '') })
        },
      )
  }
}

function carriesBody(req: Request) {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return false
  return Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined
}

async function personOf(req: Request) {
  const headers = new Headers()
  for (const name of ['authorization', 'cookie']) if (req.get(name)) headers.set(name, req.get(name)!)
  const request = new Request('http://localhost/', { headers })
  const token = getBearerToken(request)
  const user = token ? await getApiUser(token) : await getOptionalUser(request)
  return user ? `user:${user.id}` : `address:${clientAddress()}`
}
