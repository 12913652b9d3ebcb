import type { RouteConfig } from '@react-router/dev/routes'
import { flatRoutes } from '@react-router/fs-routes'

// Flat route files, as in Remix v2: every URL stays where it was.
export default flatRoutes({ ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'] }) satisfies RouteConfig
