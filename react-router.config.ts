import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // Every route's code is known up front: no lazy route discovery requests (docs/decisions/009).
  routeDiscovery: { mode: 'initial' },
} satisfies Config
