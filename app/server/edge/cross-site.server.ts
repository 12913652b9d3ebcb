import type { RequestHandler } from 'express'
import { refuse } from '~/server/edge/refuse.server'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function isCrossSite({ method, headers, host }: { method: string; headers: Headers; host: string }): boolean {
  if (SAFE_METHODS.has(method)) return false
  const site = headers.get('sec-fetch-site')
  if (site) return site !== 'same-origin' && site !== 'none'
  const origin = headers.get('origin')
  if (!origin) return false
  // An Origin that is not a URL ('null', 'foo', 'http://[') cannot be this site.
  return URL.parse(origin)?.host !== host
}

export function refuseCrossSite(): RequestHandler {
  return (req, res, next) => {
    if (!isCrossSite({ method: req.method, headers: new Headers(req.headers as Record<string, string>), host: req.get('host') ?? '' }))
      return next()
    refuse(req, res, { status: 403, error: 'Cross-site request refused' })
  }
}
