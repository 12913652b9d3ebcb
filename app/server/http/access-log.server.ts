import type { RequestHandler } from 'express'
import { log } from '~/server/platform/logger.server'

export function accessLog(): RequestHandler {
  return (req, res, next) => {
    const started = performance.now()
    res.on('finish', () => {
      log('info', 'http.request', {
        method: req.method,
        // originalUrl: inside a mounted router (the assets), req.path has lost its prefix.
        path: withoutSecrets(req.originalUrl.split('?')[0]),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      })
    })
    next()
  }
}

/** A calendar's address is its credential (decision 052): its signature is never written down. */
export function withoutSecrets(path: string) {
  return path.replace(/^(\/resources\/calendar\/[^/.]*\.)[^/]*$/, '$1***.ics')
}
