import crypto from 'node:crypto'
import type { RequestHandler, Response } from 'express'
import helmet from 'helmet'

/** The CSP nonce of this response, for entry.server to put on every script React renders. */
export function getCspNonce(res: Response): string {
  return String(res.locals.cspNonce ?? '')
}

/**
 * Security headers on every answer, with a fresh CSP nonce per request: scripts run only when the
 * server rendered them. HSTS only when the app is served over HTTPS (APP_ORIGIN), so a plain-HTTP
 * install on a LAN keeps working; for subdomains too only when the operator says every one of them
 * is on HTTPS (HSTS_INCLUDE_SUBDOMAINS), since the app cannot know that of an apex domain it does not run.
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
