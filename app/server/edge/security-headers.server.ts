import crypto from 'node:crypto'
import type { RequestHandler, Response } from 'express'
import helmet from 'helmet'

export function getCspNonce(res: Response): string {
  return String(res.locals.cspNonce ?? '')
}

/**
 * HSTS only over HTTPS, so a plain-HTTP install on a LAN keeps working; for subdomains only when the
 * operator says so (HSTS_INCLUDE_SUBDOMAINS): the app cannot know that of an apex domain it does not run.
 */
export function securityHeaders({ https, includeSubDomains }: { https: boolean; includeSubDomains: boolean }): RequestHandler[] {
  const setNonce: RequestHandler = (_req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString('base64')
    next()
  }
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${getCspNonce(res as Response)}'`],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains } : false,
  })
  const permissions: RequestHandler = (_req, res, next) => {
    res.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()')
    next()
  }
  return [setNonce, headers, permissions]
}
