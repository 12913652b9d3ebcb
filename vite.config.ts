import { reactRouter } from '@react-router/dev/vite'
import { defineConfig, type Plugin } from 'vite'

// The server build's entry is our own HTTP server (server.ts), which imports React Router's build. The
// worker that reads uploaded calls is built beside it, as build/server/call-file-worker.js: a worker
// thread runs a file of its own (docs/decisions/031).
const WORKER = 'call-file-worker'

/** React Router names every server entry index.js; the worker keeps its own name. */
function workerEntryName(): Plugin {
  return {
    name: 'call-file-worker-entry',
    configEnvironment(name) {
      if (name !== 'ssr') return
      return { build: { rollupOptions: { output: { entryFileNames: (chunk) => (chunk.name === WORKER ? `${WORKER}.js` : 'index.js') } } } }
    },
  }
}

const FRAMEWORK = /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/

export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    client: { build: { rollupOptions: { output: { codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }] } } } } },
    ssr: { build: { rollupOptions: { input: { index: './server.ts', [WORKER]: './app/server/funders/call-file-worker.ts' } } } },
  },
  plugins: [reactRouter(), workerEntryName()],
})
