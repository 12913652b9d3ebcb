import fs from 'node:fs/promises'
import path from 'node:path'
import zlib from 'node:zlib'
import express, { type RequestHandler } from 'express'

const CLIENT_DIR = path.resolve('build/client')
const ASSETS_DIR = path.join(CLIENT_DIR, 'assets')

// Hashed assets never change: each is gzipped once, at the best level, and cached for a year.
export function staticAssets(): RequestHandler[] {
  const gzipped = new Map<string, Buffer>()
  const serveGzipped: RequestHandler = async (req, res, next) => {
    const file = path.join(ASSETS_DIR, path.normalize(req.path))
    if (req.method !== 'GET' || !req.acceptsEncodings('gzip') || !/\.(js|css)$/.test(file) || !file.startsWith(ASSETS_DIR + path.sep))
      return next()
    let body = gzipped.get(file)
    if (!body) {
      const source = await fs.readFile(file).catch(() => null)
      if (!source) return next()
      body = zlib.gzipSync(source, { level: 9 })
      gzipped.set(file, body)
    }
    res.set({ 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding', 'Cache-Control': 'public, max-age=31536000, immutable' })
    res.type(path.extname(file)).send(body)
  }
  const assets = express.Router()
  assets.use('/assets', serveGzipped, express.static(ASSETS_DIR, { immutable: true, maxAge: '1y', index: false, fallthrough: false }))
  return [assets, express.static(CLIENT_DIR, { maxAge: '1d', index: false })]
}
