import type { RouteEntry } from '../route-list.ts'
import { chance, pick } from './draws.ts'
import type { FuzzContext, FuzzRequest, Gen, Schema } from './fuzz-request.ts'
import { idFor, sample } from './plausible-values.ts'
import { serialize } from './raw-json.ts'

// A request to an API route is drawn as a plausible draft first, then one fault edits it in place,
// then it is put together; the draft keeps the parts apart so that each fault edits only its own.

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/** The faults an API request may carry; each belongs to one family (path, query, header, body). */
export type ApiFault =
  | 'text-path'
  | 'undecodable-path'
  | 'text-query'
  | 'query-types'
  | 'text-header'
  | 'token'
  | 'idempotency-key'
  | 'content-type'
  | 'text-body'
  | 'invalid-json'
  | 'body-types'
  | 'top-level'
  | 'unknown-field'

/** What the OpenAPI document says a route takes: path parameters, query parameters, a body. */
export interface RouteShape {
  params: string[]
  queryParams: Schema[]
  bodySchema: Schema
  hasBody: boolean
}

/** The parts of an API request as the faults edit them. */
export interface ApiDraft {
  /** Path parameters by name, already encoded for the URL. */
  values: Record<string, string>
  /** Query parameters, already encoded, in order. */
  search: [string, string][]
  /** The JSON body, serialized at the end unless a raw `payload` replaces it. */
  body: unknown
  payload?: string | Buffer
  headers: Record<string, string>
}

/** Applies one fault of a family to a draft, in place. */
export type FaultFamily = (
  g: Gen,
  fault: ApiFault,
  draft: ApiDraft,
  shape: RouteShape,
  ctx: FuzzContext,
) => void

function operationOf(ctx: FuzzContext, route: RouteEntry) {
  const path = route.url.replace(/:([a-z_]+)/g, '{$1}')
  return ctx.openapi.paths?.[path]?.[route.method.toLowerCase()]
}

/** The route's parameters and body schema, as the OpenAPI document has them. */
export function routeShape(ctx: FuzzContext, route: RouteEntry): RouteShape {
  const operation = operationOf(ctx, route)
  return {
    params: [...route.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string),
    queryParams: (operation?.parameters ?? []).filter((p: Schema) => p.in === 'query'),
    bodySchema: operation?.requestBody?.content?.['application/json']?.schema,
    hasBody: BODY_METHODS.has(route.method),
  }
}

/** A request the route would take: real ids, some query parameters, a schema-shaped body, the token. */
export function plausibleDraft(
  g: Gen,
  ctx: FuzzContext,
  route: RouteEntry,
  shape: RouteShape,
): ApiDraft {
  const values: Record<string, string> = {}
  for (const name of shape.params) values[name] = encodeURIComponent(idFor(g, ctx, route.url, name))
  const search: [string, string][] = []
  for (const param of shape.queryParams) {
    if (chance(g, 30))
      search.push([
        param.name,
        encodeURIComponent(String(sample(g, ctx, param.schema, param.name))),
      ])
  }
  const { hasBody, bodySchema } = shape
  const body = hasBody ? (bodySchema ? sample(g, ctx, bodySchema) : {}) : undefined
  const headers: Record<string, string> = { authorization: `Bearer ${ctx.token}` }
  if (chance(g, 10)) headers['x-request-id'] = pick(g, ['trace-1', 'bad id', 'x'.repeat(200)])
  return { values, search, body, headers }
}

function query(entries: [string, string][]): string {
  return entries.length === 0 ? '' : `?${entries.map(([k, v]) => `${k}=${v}`).join('&')}`
}

/** The draft as a request for `inject`: the body as JSON unless a raw payload replaced it. */
export function toRequest(route: RouteEntry, draft: ApiDraft, fault: ApiFault): FuzzRequest {
  const { values, search, body, headers } = draft
  let payload = draft.payload
  if (body !== undefined && payload === undefined) payload = serialize(body)
  if (payload !== undefined && headers['content-type'] === undefined)
    headers['content-type'] = 'application/json'
  const path = route.url.replace(/:([a-z_]+)/g, (_m, name: string) => values[name] ?? '')
  return {
    method: route.method,
    url: `${path}${query(search)}`,
    headers,
    ...(payload !== undefined ? { payload } : {}),
    target: 'api',
    fault,
  }
}
