import type { RouteEntry } from '../route-list.ts'
import { apiRequest } from './api-request.ts'
import { pick } from './draws.ts'
import type { FuzzContext, FuzzRequest, Gen } from './fuzz-request.ts'
import { pagesRequest } from './pages-request.ts'
import { providerRequest } from './provider-request.ts'

/** One malformed request to any route of the app. */
export function anyRequest(g: Gen, ctx: FuzzContext): { route: RouteEntry; request: FuzzRequest } {
  const route = pick(g, ctx.routes)
  if (ctx.providerPaths.has(route.url)) return { route, request: providerRequest(g, ctx, route) }
  if (route.url.startsWith('/oauth/interaction')) return { route, request: pagesRequest(g, route) }
  return { route, request: apiRequest(g, ctx, route) }
}
