import fs from 'node:fs'

/**
 * A worker thread's file: its TypeScript source in development and tests (`source`, relative to the caller),
 * or the file built as build/server/NAME.js beside the server's entry (vite.config.ts), which the caller's
 * chunk may sit below. `caller` is the calling module's import.meta.url.
 */
export function workerFile(caller: string, source: string, name: string): URL {
  if (caller.endsWith('.ts')) return new URL(source, caller)
  const built = [`./${name}.js`, `../${name}.js`].map((relative) => new URL(relative, caller)).find((url) => fs.existsSync(url))
  if (!built) throw new Error(`The built worker ${name}.js is missing: run npm run build`)
  return built
}
