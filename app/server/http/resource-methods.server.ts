import type { RequestHandler } from 'express'
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

type ServerRoute = NonNullable<ServerBuild['routes'][string]>

/**
 * A resource route (no page) with no loader, asked with GET, makes React Router answer 400 with "Unexpected
 * Server Error"; one with no action, asked with POST, 405 with no Allow header. Both are a wrong method:
 * 405 with the methods the route takes, before React Router is asked.
 */
export function refuseWrongMethods(build: ServerBuild): RequestHandler {
  const tree = routeTree(build)
  return (req, res, next) => {
    const id = matchRoutes(tree, req.path)?.at(-1)?.route.id
    const route = id ? build.routes[id] : undefined
    if (!route || route.module.default) return next()
    const reads = req.method === 'GET' || req.method === 'HEAD'
    if (reads ? route.module.loader : route.module.action) return next()
    const allow = [route.module.loader && 'GET, HEAD', route.module.action && 'POST'].filter(Boolean).join(', ')
    if (!allow) return next()
    res
      .set('Allow', allow)
      .status(405)
      .json({ error: `Method not allowed: use ${allow}.` })
  }
}

function routeTree(build: ServerBuild): RouteObject[] {
  const routes = Object.values(build.routes).filter((route): route is ServerRoute => Boolean(route))
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
