import type { RouteEntry } from '../route-list.ts'
import { BAD_PCT, bad, UNDECODABLE, withBadText, wrongValues } from './bad-values.ts'
import { chance, int, pick } from './draws.ts'
import type { FuzzContext, FuzzRequest, Gen, Schema } from './fuzz-request.ts'
import { idFor, sample } from './plausible-values.ts'
import { deepArray, RawJson, serialize } from './raw-json.ts'
import { surelyInvalid } from './surely-invalid.ts'

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

function operationOf(ctx: FuzzContext, route: RouteEntry) {
  const path = route.url.replace(/:([a-z_]+)/g, '{$1}')
  return ctx.openapi.paths?.[path]?.[route.method.toLowerCase()]
}

function query(entries: [string, string][]): string {
  return entries.length === 0 ? '' : `?${entries.map(([k, v]) => `${k}=${v}`).join('&')}`
}

/** A request to a route of this API (`/v1`, health, metadata) with at least one fault. */
export function apiRequest(g: Gen, ctx: FuzzContext, route: RouteEntry): FuzzRequest {
  const operation = operationOf(ctx, route)
  const bodySchema = operation?.requestBody?.content?.['application/json']?.schema
  const queryParams: Schema[] = (operation?.parameters ?? []).filter(
    (p: Schema) => p.in === 'query',
  )
  const params = [...route.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string)
  const hasBody = BODY_METHODS.has(route.method)
  const faults = [
    'text-query',
    'text-header',
    'token',
    ...(params.length > 0 ? ['text-path', 'text-path', 'undecodable-path'] : []),
    ...(hasBody ? ['text-body', 'text-body', 'text-body', 'invalid-json', 'content-type'] : []),
    ...(hasBody ? ['idempotency-key'] : ['query-types', 'query-types']),
    ...(hasBody && bodySchema ? ['body-types', 'body-types', 'top-level', 'unknown-field'] : []),
  ]
  const fault = pick(g, faults)

  const values: Record<string, string> = {}
  for (const name of params) values[name] = encodeURIComponent(idFor(g, ctx, route.url, name))
  const search: [string, string][] = []
  for (const param of queryParams) {
    if (chance(g, 30))
      search.push([
        param.name,
        encodeURIComponent(String(sample(g, ctx, param.schema, param.name))),
      ])
  }
  let body: unknown = hasBody ? (bodySchema ? sample(g, ctx, bodySchema) : {}) : undefined
  let payload: string | Buffer | undefined
  const headers: Record<string, string> = { authorization: `Bearer ${ctx.token}` }
  if (chance(g, 10)) headers['x-request-id'] = pick(g, ['trace-1', 'bad id', 'x'.repeat(200)])

  switch (fault) {
    case 'text-path': {
      const name = pick(g, params)
      const at = pick(g, ['start', 'end', 'only'])
      const nul = pick(g, BAD_PCT)
      values[name] =
        at === 'only' ? nul : at === 'start' ? `${nul}${values[name]}` : `${values[name]}${nul}`
      break
    }
    case 'undecodable-path':
      values[pick(g, params)] = pick(g, UNDECODABLE)
      break
    case 'text-query': {
      const names = ['x', 'cursor', 'q', ...queryParams.map((p) => p.name as string)]
      if (chance(g, 25)) search.push([pick(g, BAD_PCT), '1'])
      else search.push([pick(g, names), pick(g, BAD_PCT)])
      if (chance(g, 30)) search.push([pick(g, names), pick(g, UNDECODABLE)])
      break
    }
    case 'query-types': {
      const names = ['zzz', 'limit[]', ...queryParams.map((p) => p.name as string)]
      for (let i = int(g, 1, 3); i > 0; i--) {
        const value = pick(g, [
          'abc',
          '-1',
          '0',
          '101',
          '1.5',
          '1e400',
          '99999999999999999999',
          '',
          '%20',
          'true',
          'x'.repeat(int(g, 10, 5000)),
          pick(g, UNDECODABLE),
          'null',
          '[]',
          '{}',
        ])
        search.push([pick(g, names), value])
      }
      break
    }
    case 'text-header': {
      const name = pick(g, [
        'x-fuzz',
        'idempotency-key',
        'x-request-id',
        'accept',
        'user-agent',
        'if-none-match',
        'accept-language',
        'cookie',
        'origin',
        'referer',
        'x-forwarded-for',
      ])
      headers[name] = bad(g)
      break
    }
    case 'token': {
      const value = pick(g, [
        undefined,
        'Bearer',
        'Bearer x',
        'Basic abc',
        `Bearer ${ctx.token}x`,
        `Bearer ${ctx.token.slice(0, -1)}`,
        `Bearer wg_key_${'A'.repeat(40)}`,
        `Bearer ${'x'.repeat(int(g, 100, 8000))}`,
        `Bearer wg_at_${'a'.repeat(43)}`,
        `Bearer ${ctx.token} extra`,
        'Bearer \u0000',
        `Bearer ${ctx.token}\u0000`,
      ])
      if (value === undefined) delete headers.authorization
      else headers.authorization = value
      break
    }
    case 'text-body':
      body = withBadText(g, body)
      break
    case 'invalid-json':
      body = undefined
      payload = pick(g, [
        '{',
        '{"a":',
        '{"title": "x"',
        "{'a': 1}",
        '{"a": 1,}',
        'NaN',
        '[1,]',
        'undefined',
        '{"a": "x"} trailing',
        '',
        '   ',
        '{"__proto__": {"x": 1}}',
        '{"constructor": {"prototype": {"x": 1}}}',
        `${'['.repeat(int(g, 1, 100_000))}`,
        '{"a":"\u0000"}',
        '{"a":"\t"}',
        Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
        '\ufeff{"a":"\\u0000"}',
        '"\\ud800"',
        '{"a":"\\u00"}',
        '{"a":"\\x41"}',
      ])
      break
    case 'content-type':
      headers['content-type'] = pick(g, [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/jsonx',
        'json',
        'application/merge-patch+json',
        'application/vnd.api+json',
        '*/*',
        'text/json',
        ';;;',
        'application/',
      ])
      break
    case 'idempotency-key':
      headers['idempotency-key'] = pick(g, [
        'a b',
        ' ',
        'x'.repeat(256),
        '"unterminated',
        'é',
        'a\tb',
        '"a" "b"',
        '""',
        '"a b"',
      ])
      break
    case 'body-types': {
      const properties = Object.entries(bodySchema.properties ?? {}) as [string, Schema][]
      const container = (body ?? {}) as Record<string, unknown>
      let sure = false
      for (let i = int(g, 1, 2); i > 0 && properties.length > 0; i--) {
        const [name, schema] = pick(g, properties)
        const value = pick(g, wrongValues(g))
        container[name] = value
        sure ||= surelyInvalid(value, schema)
      }
      // When no replacement is certain to be refused, an unknown field makes the request so.
      if (!sure) container.__unknown = 1
      body = container
      break
    }
    case 'top-level':
      body = pick(g, [
        [],
        [body],
        null,
        0,
        new RawJson('1e400'),
        'x',
        true,
        deepArray(int(g, 2, 100_000)),
      ])
      break
    case 'unknown-field':
      body = {
        ...(body as object),
        [pick(g, [
          '__unknown',
          'id',
          'created_at',
          'workspace_id',
          'owner_id',
          'type',
          'constructor',
        ])]: pick(g, wrongValues(g)),
      }
      break
  }
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
