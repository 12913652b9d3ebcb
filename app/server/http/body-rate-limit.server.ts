import type { Request, RequestHandler } from 'express'
import { RateLimitError } from '~/server/edge/rate-limit.server'
import { enforceBodyRateLimit } from '~/server/edge/limits.server'
import { refuse } from '~/server/edge/refuse.server'

/**
 * Every request with a body counts against its sender's allowance before anything reads the body, on
 * every route alike (docs/decisions/025). `sender` names whom a request counts against, looking the user
 * up as the route will (once a request): accounts knows how, and the HTTP layer below it does not.
 */
export type SenderOf = (request: globalThis.Request) => Promise<string>

export function limitBodiesPerPerson(sender: SenderOf): RequestHandler {
  return (req, res, next) => {
    if (!carriesBody(req)) return next()
    sender(credentialsOf(req))
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

/** A request that carries only what names its sender, not its body. */
function credentialsOf(req: Request) {
  const headers = new Headers()
  for (const name of ['authorization', 'cookie']) if (req.get(name)) headers.set(name, req.get(name)!)
  return new globalThis.Request('http://localhost/', { headers })
}
