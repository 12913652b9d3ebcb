// Checks made on every request before Remix sees it (called from server.js).

/** Bodies above this are refused with 413 before anything parses them. */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024

export type EdgeRefusal = { status: number; error: string }

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses an over-long declared body, and a state-changing request another site's page made the
 * browser send (a cross-site form post): Sec-Fetch-Site where the browser sends it, Origin otherwise.
 */
export function checkRequest({ method, headers, host }: { method: string; headers: Headers; host: string }): EdgeRefusal | null {
  if (Number(headers.get('content-length') ?? 0) > BODY_LIMIT_BYTES) return tooLarge()
  if (SAFE_METHODS.has(method)) return null
  const site = headers.get('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none') return crossSite()
  const origin = headers.get('origin')
  if (!site && origin && origin !== 'null' && new URL(origin).host !== host) return crossSite()
  if (!site && origin === 'null') return crossSite()
  return null
}

export function tooLarge(): EdgeRefusal {
  return { status: 413, error: `Request body too large (limit ${BODY_LIMIT_BYTES / 1024 / 1024} MB)` }
}

function crossSite(): EdgeRefusal {
  return { status: 403, error: 'Cross-site request refused' }
}
