// The production server: Express with Remix's own adapter (what remix-serve runs on), plus what
// remix-serve cannot give us: the client address, a request id, per-request CSP nonces and security
// headers, and a graceful shutdown. See docs/decisions/002-custom-express-server.md.
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import zlib from 'node:zlib'
import { createRequestHandler } from '@remix-run/express'
import compression from 'compression'
import express from 'express'

// React and Remix read NODE_ENV when they load: production unless told otherwise.
process.env.NODE_ENV ??= 'production'
const build = await import('./build/index.js')
const { env, requestContextStorage, checkRequest, bodyLimitBytes, tooLarge, start, stopGenerations, closeDatabase } = build.entry.module.server
await start()

const SHUTDOWN_GRACE_MS = 10_000
let stopping = false

const app = express()
app.disable('x-powered-by')
// How many reverse proxies may append to X-Forwarded-For; 0 trusts none and uses the socket address.
app.set('trust proxy', env.TRUST_PROXY)

app.use((req, res, next) => {
  // While stopping, each answer closes its connection, so keep-alive clients let the server drain.
  if (stopping) res.set('Connection', 'close')
  const requestId = crypto.randomUUID()
  res.locals.cspNonce = crypto.randomBytes(16).toString('base64')
  res.set(securityHeaders(res.locals.cspNonce, req.secure || env.appOrigin.startsWith('https:')))
  res.set('X-Request-Id', requestId)
  requestContextStorage.run({ requestId, clientIp: req.ip ?? 'unknown' }, next)
})

// Refuse before any body is read: a declared body over the limit, a cross-site form post.
app.use((req, res, next) => {
  const refusal = checkRequest({ method: req.method, headers: new Headers(req.headers), host: req.get('host') ?? '' })
  if (refusal) {
    // A body too large to drain is not read at all: the connection closes after the answer.
    refuse(res, refusal, { close: Number(req.get('content-length') ?? 0) > DISCARD_MAX_BYTES })
    return discardBody(req)
  }
  if (req.get('transfer-encoding')) limitStreamedBody(req, res)
  next()
})

// A body sent without Content-Length is counted as it arrives and cut off at the limit.
function limitStreamedBody(req, res) {
  let received = 0
  const count = (chunk) => {
    received += chunk.length
    if (received <= bodyLimitBytes || res.headersSent) return
    req.off('data', count)
    refuse(res, tooLarge())
    // Remix is reading this body too: end its read with an error, so no action runs on a body
    // that was refused, while the rest is drained below.
    if (req.listenerCount('error')) req.emit('error', new Error('Request body too large'))
    discardBody(req)
  }
  req.on('data', count)
}

function refuse(res, { status, error }, { close = false } = {}) {
  // Connection: close would make Node close the socket as soon as the answer is written.
  if (close) res.set('Connection', 'close')
  res.status(status).json({ error })
}

// Closing while the client is still sending resets the connection, and the client may never read the
// refusal. So the refusal goes out at once and the rest of the body is read and dropped, within
// bounds, after which the connection is closed (RFC 9112 9.6). A body drained in full leaves the
// connection open for the next request.
const DISCARD_MAX_BYTES = 4 * 1024 * 1024
const DISCARD_MAX_MS = 2000
function discardBody(req) {
  let discarded = 0
  const close = () => req.destroy()
  const timer = setTimeout(close, DISCARD_MAX_MS)
  req.on('data', (chunk) => {
    discarded += chunk.length
    if (discarded > DISCARD_MAX_BYTES) close()
  })
  req.on('close', () => clearTimeout(timer))
  req.resume()
}

// Built assets never change (their names carry a hash): each is gzipped once, at the best level.
app.use('/build', serveGzippedAsset)
app.use('/build', express.static('public/build', { immutable: true, maxAge: '1y', index: false }))

// Pages and data are gzipped as they are sent, at a fast level; event streams never, since each piece
// must reach the client at once.
app.use(
  compression({
    level: 1,
    filter: (req, res) => !/^text\/event-stream/.test(String(res.getHeader('Content-Type'))) && compression.filter(req, res),
  }),
)
app.get('/favicon.svg', express.static('public', { maxAge: '1d', index: false }))

app.all(
  '*',
  createRequestHandler({
    build,
    mode: build.mode,
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce }),
  }),
)

// A request we already refused (413 mid-body) can still fail inside Remix: nothing more to send then.
app.use((error, req, res, next) => {
  if (res.headersSent) return
  console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', event: 'server.error', error: String(error) }))
  res.status(500).json({ error: 'Internal server error' })
})

const BUILD_DIR = path.resolve('public/build')
const gzippedAssets = new Map()
async function serveGzippedAsset(req, res, next) {
  const file = path.join(BUILD_DIR, path.normalize(req.path))
  if (req.method !== 'GET' || !req.acceptsEncodings('gzip') || !/\.(js|css)$/.test(file) || !file.startsWith(BUILD_DIR + path.sep)) return next()
  let body = gzippedAssets.get(file)
  if (!body) {
    const source = await fs.readFile(file).catch(() => null)
    if (!source) return next()
    body = zlib.gzipSync(source, { level: 9 })
    gzippedAssets.set(file, body)
  }
  res.set({ 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding', 'Cache-Control': 'public, max-age=31536000, immutable' })
  res.type(path.extname(file)).send(body)
}

function securityHeaders(nonce, https) {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ')
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    ...(https ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  }
}

const server = app.listen(env.PORT, () => {
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', event: 'server.listening', port: env.PORT, url: env.appOrigin }))
})

async function stop(signal) {
  if (stopping) return
  stopping = true
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', event: 'server.stopping', signal }))
  // Stop accepting; idle keep-alive connections close, requests in flight get their answers.
  const drained = new Promise((resolve) => server.close(resolve))
  await stopGenerations()
  await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS))])
  server.closeAllConnections()
  await closeDatabase()
  process.exit(0)
}
process.on('SIGTERM', () => stop('SIGTERM'))
process.on('SIGINT', () => stop('SIGINT'))
