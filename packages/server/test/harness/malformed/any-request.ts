import type { RouteEntry } from '../route-list.ts'
import { apiRequest } from './api-request.ts'
import { pick } from './draws.ts'
import type { FuzzContext, FuzzRequest, Gen } from './fuzz-request.ts'
import { pagesRequest } from './pages-request.ts'
import { providerRequest } from './provider-request.ts'

// The dashboard's pages (src/web/): every route outside the API's own paths.
function isDashboardRoute(url: string): boolean {
  return !/^\/(v1|mcp|oauth|\.well-known|healthz|readyz)(\/|$)/.test(url)
}

/** One malformed request to any route of the app. */
export function anyRequest(g: Gen, ctx: FuzzContext): { route: RouteEntry; request: FuzzRequest } {
  const route = pick(g, ctx.routes)
  if (ctx.providerPaths.has(route.url)) return { route, request: providerRequest(g, ctx, route) }
  if (route.url.startsWith('/oauth/interaction')) return { route, request: pagesRequest(g, route) }
  if (isDashboardRoute(route.url)) return { route, request: pagesRequest(g, route) }
  return { route, request: apiRequest(g, ctx, route) }
}
