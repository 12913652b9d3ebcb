// React Router's Vite plugin provides the server build under this name (imported by server.ts).
declare module 'virtual:react-router/server-build' {
  import type { ServerBuild } from 'react-router'
  const build: ServerBuild
  export = build
}
