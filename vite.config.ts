import { reactRouter } from '@react-router/dev/vite'
import { defineConfig, type Plugin } from 'vite'

// The server build's entry is our own HTTP server (server.ts), which imports React Router's build. The
// workers are built beside it, as build/server/NAME.js, since a worker thread runs a file of its own: the one
// that reads uploaded calls (docs/decisions/031) and the work pool's (docs/decisions/041).
const WORKERS = { 'call-file-worker': './app/server/funders/call-file-worker.ts', 'work-worker': './app/server/work/worker.ts' }

/** React Router names every server entry index.js; the workers keep their own names. */
function workerEntryNames(): Plugin {
  return {
    name: 'worker-entries',
    configEnvironment(name) {
      if (name !== 'ssr') return
      const entryFileNames = (chunk: { name: string }) => (chunk.name in WORKERS ? `${chunk.name}.js` : 'index.js')
      return { build: { rollupOptions: { output: { entryFileNames } } } }
    },
  }
}

const FRAMEWORK = /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/

// Bundled into the server build rather than loaded file by file from node_modules at start-up: the
// OpenAI SDK alone is 154 modules. Its chunk loads with the first call to a model (docs/decisions/048).
const BUNDLED = ['openai', 'nodemailer', 'diff']

export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    client: { build: { rollupOptions: { output: { codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }] } } } } },
    ssr: {
      resolve: { noExternal: BUNDLED },
      build: { rollupOptions: { input: { index: './server.ts', ...WORKERS } } },
    },
  },
  plugins: [reactRouter(), workerEntryNames()],
})
