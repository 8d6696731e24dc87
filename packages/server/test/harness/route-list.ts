import type { FastifyInstance } from 'fastify'

/** One method of one route, with its URL pattern (`/v1/tasks/:id/complete`). */
export interface RouteEntry {
  method: string
  url: string
}

/**
 * Every route of a ready app, read from `printRoutes()`: the tree prints one path segment per
 * line, indented four characters per level, with the methods in parentheses.
 */
export function routeList(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = []
  const prefixes: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line)
    if (!match) continue
    const depth = (match[1] ?? '').length / 4
    prefixes.length = depth
    const url = `${prefixes.join('')}${match[2]}`
    prefixes.push(match[2] as string)
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim()))
      if (method) routes.push({ method, url })
  }
  return routes
}
