import { existsSync, readdirSync } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import express, { type RequestHandler } from 'express'

const CLIENT_DIR = path.resolve('build/client')
const ASSETS_DIR = path.join(CLIENT_DIR, 'assets')

const EXTENSIONS = { br: '.br', gzip: '.gz' } as const

// Hashed assets never change: the build compresses each once, at the best levels (decision 048),
// and they are sent as they are, Brotli to a browser that takes it, and cached for a year.
export function staticAssets(): RequestHandler[] {
  const compressed = new Map<string, Buffer>()
  const serveCompressed: RequestHandler = async (req, res, next) => {
    const file = path.join(ASSETS_DIR, path.normalize(req.path))
    // Brotli first whenever it is taken: browsers list it last, though it is the smaller.
    const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : null
    if (req.method !== 'GET' || !encoding || !/\.(js|css)$/.test(file) || !file.startsWith(ASSETS_DIR + path.sep)) return next()
    const name = file + EXTENSIONS[encoding]
    const body = compressed.get(name) ?? (await fs.readFile(name).catch(() => null))
    if (!body) return next()
    // Only files the build made are held, never a miss: the map is no larger than the build.
    compressed.set(name, body)
    res.set({ 'Content-Encoding': encoding, Vary: 'Accept-Encoding', 'Cache-Control': 'public, max-age=31536000, immutable' })
    res.type(path.extname(file)).send(body)
  }
  const assets = express.Router()
  assets.use('/assets', serveCompressed, express.static(ASSETS_DIR, { immutable: true, maxAge: '1y', index: false, fallthrough: false }))
  return [assets, rootFiles()]
}

/** Listed at start, so no other request waits for a stat of the disk on the thread pool. */
function rootFiles(): RequestHandler {
  const names = new Set(
    existsSync(CLIENT_DIR)
      ? readdirSync(CLIENT_DIR, { withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map(({ name }) => `/${name}`)
      : [],
  )
  const serve = express.static(CLIENT_DIR, { maxAge: '1d', index: false })
  return (req, res, next) => (names.has(req.path) ? serve(req, res, next) : next())
}
