import type { RequestHandler } from 'express'
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

type ServerRoute = NonNullable<ServerBuild['routes'][string]>
type Candidate = { route: ServerRoute; pattern: RegExp; allow: string }

/**
 * A resource route (no page) with no loader, asked with GET, makes React Router answer 400 with "Unexpected
 * Server Error"; one with no action, asked with POST, 405 with no Allow header. Both are a wrong method:
 * 405 with the methods the route takes, before React Router is asked.
 */
export function refuseWrongMethods(build: ServerBuild): RequestHandler {
  const routes = Object.values(build.routes).filter((route): route is ServerRoute => Boolean(route))
  const tree = routeTree(routes)
  const resources = routes.filter((route) => !route.module.default && (route.module.loader || route.module.action))
  const candidatesFor = (reads: boolean) =>
    resources.filter((route) => !(reads ? route.module.loader : route.module.action)).map((route) => candidate(route, build))
  const forReads = candidatesFor(true)
  const forWrites = candidatesFor(false)
  return (req, res, next) => {
    const candidates = req.method === 'GET' || req.method === 'HEAD' ? forReads : forWrites
    // Most requests match no candidate's pattern; matchRoutes ranks the whole table, so it only confirms.
    const found = candidates.find(({ pattern }) => pattern.test(req.path))
    if (!found || matchRoutes(tree, req.path)?.at(-1)?.route.id !== found.route.id) return next()
    res
      .set('Allow', found.allow)
      .status(405)
      .json({ error: `Method not allowed: use ${found.allow}.` })
  }
}

/** The route's whole path as a pattern: a loose one (any match is confirmed by React Router's own ranking). */
function candidate(route: ServerRoute, build: ServerBuild): Candidate {
  const segments: string[] = []
  for (let at: ServerRoute | undefined = route; at; at = at.parentId ? build.routes[at.parentId] : undefined)
    if (at.path) segments.unshift(at.path)
  const path = segments.join('/').replace(/^\/+/, '')
  const loose = /[?*]/.test(path)
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  const allow = [route.module.loader && 'GET, HEAD', route.module.action && 'POST'].filter(Boolean).join(', ')
  return { route, pattern: loose ? /^/ : new RegExp(`^/${source}/?$`, 'i'), allow }
}

function routeTree(routes: ServerRoute[]): RouteObject[] {
  const branchOf = (route: ServerRoute): RouteObject =>
    ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: routes.filter((child) => child.parentId === route.id).map(branchOf),
    }) as RouteObject
  return routes.filter((route) => !route.parentId).map(branchOf)
}
