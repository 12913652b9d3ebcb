import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

// The server build's entry is our own HTTP server (server.ts), which imports React Router's build.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    ssr: { build: { rollupOptions: { input: './server.ts' } } },
  },
  plugins: [reactRouter()],
})
