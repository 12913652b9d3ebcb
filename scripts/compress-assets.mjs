// Part of `npm run build`: each script and stylesheet of the client build is compressed once, here, at the
// best levels (Brotli 11, gzip 9), beside the file. The server sends these as they are: compressing on
// demand would hold its event loop tens of milliseconds per file, and at these levels far longer.
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

const ASSETS_DIR = path.resolve(process.argv[2] ?? 'build/client/assets')

for (const name of fs.readdirSync(ASSETS_DIR)) {
  if (!/\.(js|css)$/.test(name)) continue
  const file = path.join(ASSETS_DIR, name)
  const source = fs.readFileSync(file)
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source, { level: 9 }))
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(source, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
  )
}
