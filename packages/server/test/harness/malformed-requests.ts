import fc from 'fast-check'
import type { RouteEntry } from './route-list.ts'

// Generators of malformed requests for the fuzz test: every request carries at least one fault
// that the API must refuse (so a write route that accepts one has changed something it must not),
// on top of otherwise plausible values: real ids, real tokens, schema-shaped bodies.

type Gen = fc.GeneratorValue
// biome-ignore lint/suspicious/noExplicitAny: JSON Schemas from the OpenAPI document, read loosely
type Schema = any

/** A request for `inject`, and which kind of route it is for (that decides what its errors look like). */
export interface FuzzRequest {
  method: string
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
  target: 'api' | 'provider' | 'pages'
  fault: string
}

/** What the generators draw on: the routes, their schemas, and real ids and secrets. */
export interface FuzzContext {
  routes: RouteEntry[]
  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document
  openapi: any
  token: string
  /** Real ids by prefix (`tsk`, `whk`, `key`…). */
  ids: Record<string, string[]>
  oauth: { clientId: string; redirectUri: string; challenge: string }
  /** Paths the OAuth provider answers itself. */
  providerPaths: Set<string>
}

// Unbiased: fast-check's usual bias towards small values and first options would make every
// "now and then" fault nearly always present.
const pick = <T>(g: Gen, items: readonly T[]): T => g(() => fc.noBias(fc.constantFrom(...items)))
const int = (g: Gen, min: number, max: number): number =>
  g(() => fc.noBias(fc.integer({ min, max })))
const chance = (g: Gen, percent: number): boolean => int(g, 0, 99) < percent

/** Strings the database cannot take, as JS strings (a JSON body carries them as escapes). */
export const BAD_TEXT = [
  '\u0000',
  'a\u0000b',
  '\u0000\u0000',
  '\ud800',
  'x\udc00y',
  '\udbff',
  '\udc00\ud800',
  `${'x'.repeat(3000)}\u0000`,
  'ok\u0000\ud800',
] as const
// A NUL as a URL can carry it; an unpaired surrogate has no UTF-8 form, so no URL can.
const BAD_PCT = ['%00', 'a%00', '%00b', 'x%00%00y'] as const
// Percent-encodings that decode to nothing valid: noise, refused or kept as they are.
const UNDECODABLE = ['%', '%zz', '%ED%A0%80', '%C0%80', '%FF', '%E0%A4%A', '%F4%90%80%80'] as const

const bad = (g: Gen) => pick(g, BAD_TEXT)

// A placeholder for JSON text that JSON.stringify cannot produce (1e400, 20-digit integers, deep
// nesting).
class RawJson {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** Serializes a value in which RawJson pieces stand for themselves. */
export function serialize(value: unknown): string {
  const raws: string[] = []
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof RawJson) {
      raws.push(v.text)
      return `@@raw${raws.length - 1}@@`
    }
    return v
  })
  return (text ?? 'null').replace(/"@@raw(\d+)@@"/g, (_m, i) => raws[Number(i)] as string)
}

const deepArray = (n: number) => new RawJson(`${'['.repeat(n)}${']'.repeat(n)}`)
const deepObject = (n: number) => new RawJson(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)

function idFor(g: Gen, ctx: FuzzContext, url: string, name: string): string {
  const kind = name === 'delivery_id' ? 'dlv' : KIND_BY_COLLECTION[url.split('/')[2] ?? '']
  const all = Object.values(ctx.ids).flat()
  const real = kind ? (ctx.ids[kind] ?? []) : all
  const choice = int(g, 0, 9)
  if (choice < 5 && real.length > 0) return pick(g, real)
  if (choice < 7 && all.length > 0) return pick(g, all)
  return pick(g, [
    `${kind ?? 'tsk'}_00000000000000000000000000`,
    'xyz',
    'TSK_00000000000000000000000000',
    '..',
    '%2e%2e',
    '%2F',
    '😀',
    'a'.repeat(600),
    ' ',
  ])
}

const KIND_BY_COLLECTION: Record<string, string> = {
  tasks: 'tsk',
  canvases: 'cnv',
  webhooks: 'whk',
  people: 'usr',
  projects: 'prj',
  tokens: 'key',
  'api-keys': 'key',
  'oauth-grants': 'grt',
}

/** A plausible value for a schema: real ids for `*_id` fields, the first enum value, and so on. */
function sample(g: Gen, ctx: FuzzContext, schema: Schema, name = ''): unknown {
  if (!schema || typeof schema !== 'object') return 'x'
  if (schema.anyOf) {
    const options = schema.anyOf.filter((s: Schema) => s.type !== 'null')
    return options.length > 0 ? sample(g, ctx, pick(g, options), name) : null
  }
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return pick(g, schema.enum)
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      const required = new Set<string>(schema.required ?? [])
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || chance(g, 40)) out[key] = sample(g, ctx, child, key)
      }
      return out
    }
    case 'array':
      return chance(g, 50) ? [] : [sample(g, ctx, schema.items, name)]
    case 'integer':
    case 'number':
      return schema.minimum ?? 1
    case 'boolean':
      return true
    case 'string': {
      if (schema.format === 'date') return '2026-12-01'
      if (schema.format === 'date-time') return '2026-12-01T10:00:00Z'
      if (schema.format === 'uri') return 'https://hooks.example.test/in'
      if (schema.format === 'email') return 'someone@example.test'
      if (name.endsWith('_id') || name === 'links') return pick(g, Object.values(ctx.ids).flat())
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1))
    }
  }
  return 'x'
}

const jsonType = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : value instanceof RawJson
        ? 'raw'
        : typeof value

/** True when no branch of the schema can accept the value; false when unsure. */
function surelyInvalid(value: unknown, schema: Schema): boolean {
  if (!schema || typeof schema !== 'object') return false
  if (schema.anyOf) return schema.anyOf.every((s: Schema) => surelyInvalid(value, s))
  if (value instanceof RawJson) return schema.type === 'string' || schema.type === 'boolean'
  const type = jsonType(value)
  const allowed = schema.type === 'integer' ? 'number' : schema.type
  if (schema.enum) return !schema.enum.includes(value)
  if (schema.const !== undefined) return value !== schema.const
  if (allowed && type !== allowed) return true
  if (type === 'number' && schema.type === 'integer' && !Number.isInteger(value)) return true
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return true
    if (schema.minLength !== undefined && value.length < schema.minLength) return true
    if (schema.format && value === 'not a value of any format') return true
  }
  if (typeof value === 'number') {
    if (schema.maximum !== undefined && value > schema.maximum) return true
    if (schema.minimum !== undefined && value < schema.minimum) return true
  }
  return false
}

// Values of every JSON type, and the awkward ones.
const wrongValues = (g: Gen): unknown[] => [
  pick(g, [0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2]),
  new RawJson(
    pick(g, ['1e400', '-1e400', '123456789012345678901234567890', '-0', '0.0000001e-400']),
  ),
  pick(g, ['', 'not a value of any format', 'x'.repeat(int(g, 501, 200_000))]),
  true,
  null,
  [],
  pick(g, [[1, 'a', null], [[[]]], Array.from({ length: 200 }, (_, i) => i)]),
  {},
  { a: { b: [1] } },
  deepArray(int(g, 100, 50_000)),
  deepObject(int(g, 100, 20_000)),
]

/** Puts a bad string somewhere in a JSON value: a value, a key, or a new nested value. */
function withBadText(g: Gen, value: unknown): unknown {
  const text = bad(g)
  const copy = structuredClone(value)
  const container =
    copy !== null && typeof copy === 'object' ? (copy as Record<string, unknown>) : null
  if (!container) return pick(g, [text, [text], { x: text }])
  const keys = Object.keys(container)
  switch (int(g, 0, 4)) {
    case 0:
      if (keys.length > 0) {
        container[pick(g, keys)] = text
        return copy
      }
      container.x = text
      return copy
    case 1:
      container[text] = 1
      return copy
    case 2:
      container[pick(g, ['nested', ...keys])] = { list: [1, { deep: [text] }] }
      return copy
    case 3:
      container[pick(g, ['links', 'list', ...keys])] = [...Array(int(g, 0, 3)).fill('ok'), text]
      return copy
    default:
      container[pick(g, ['obj', ...keys])] = { [text]: text }
      return copy
  }
}

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

/** A request to the OAuth provider's own endpoints: parameters with NULs, unknown or wrong values. */
export function providerRequest(g: Gen, ctx: FuzzContext, route: RouteEntry): FuzzRequest {
  const { clientId, redirectUri, challenge } = ctx.oauth
  const value = (good: readonly string[]) =>
    chance(g, 35) ? `${pick(g, good)}${bad(g)}` : pick(g, [...good, 'x'.repeat(int(g, 1, 3000))])
  const params: Record<string, string> = {}
  const candidates: [string, readonly string[]][] = [
    ['client_id', [clientId, 'cli_00000000000000000000000000', '']],
    ['redirect_uri', [redirectUri, 'https://evil.example.test/cb', 'not a uri']],
    ['response_type', ['code', 'token', 'code id_token']],
    ['scope', ['project:read', 'openid', 'task:read nope']],
    ['code_challenge', [challenge, 'short']],
    ['code_challenge_method', ['S256', 'plain']],
    ['state', ['st']],
    ['nonce', ['n']],
    ['login_hint', ['alice@example.test']],
    ['prompt', ['consent', 'login', 'none']],
    ['resource', ['http://127.0.0.1:8080', 'https://other.example.test']],
    ['grant_type', ['authorization_code', 'refresh_token', 'client_credentials']],
    ['code', ['c'.repeat(43)]],
    ['refresh_token', [`wg_rt_${'r'.repeat(43)}`]],
    ['code_verifier', ['v'.repeat(43)]],
    ['token', [`wg_at_${'t'.repeat(43)}`]],
    ['token_type_hint', ['access_token', 'refresh_token']],
    ['client_secret', ['secret']],
    ['client_name', ['App']],
    ['redirect_uris', ['https://app.example.test/cb']],
  ]
  for (const [name, good] of candidates) if (chance(g, 45)) params[name] = value(good)
  // Always at least one bad value: the fault this request carries.
  const [faultName, faultGood] = pick(g, candidates)
  params[faultName] = `${pick(g, faultGood)}${bad(g)}`
  const headers: Record<string, string> = {}
  if (chance(g, 20)) {
    const id = chance(g, 50) ? `${clientId}${pick(g, ['\u0000', ''])}` : clientId
    const secret = chance(g, 50) ? 'secret\u0000' : 'secret'
    headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
  }
  const path = route.url.replace(/:([a-z_]+)/g, () => pick(g, ['abc', '%00', 'x'.repeat(40)]))
  const form = new URLSearchParams(params).toString()
  const method = route.method
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
    return { method, url: `${path}?${form}`, headers, target: 'provider', fault: faultName }
  }
  const asJson = route.url === '/oauth/register' || chance(g, 15)
  return {
    method,
    url: path,
    headers: {
      ...headers,
      'content-type': asJson
        ? 'application/json'
        : pick(g, [
            'application/x-www-form-urlencoded',
            'application/x-www-form-urlencoded',
            'text/plain',
          ]),
    },
    payload: asJson
      ? serialize({
          ...params,
          redirect_uris: [params.redirect_uris ?? 'https://a.example.test/cb'],
        })
      : form,
    target: 'provider',
    fault: faultName,
  }
}

/** A request to the sign-in and consent pages: form fields and addresses with NULs. */
export function pagesRequest(g: Gen, route: RouteEntry): FuzzRequest {
  const uid = pick(g, ['abc', '%00', `u${'x'.repeat(40)}`, `x%00y`])
  const path = route.url.replace(':uid', uid)
  const fields: Record<string, string> = {}
  for (const name of ['email', 'password', 'csrf', 'choice', 'decision'])
    if (chance(g, 50)) fields[name] = chance(g, 50) ? bad(g) : 'x'
  fields[pick(g, ['email', 'password', 'csrf'])] = bad(g)
  const form = new URLSearchParams(fields).toString()
  if (route.method === 'GET' || route.method === 'HEAD')
    return {
      method: route.method,
      url: `${path}?q=${pick(g, BAD_PCT)}`,
      headers: {},
      target: 'pages',
      fault: 'text-query',
    }
  const asJson = chance(g, 20)
  return {
    method: route.method,
    url: path,
    headers: { 'content-type': asJson ? 'application/json' : 'application/x-www-form-urlencoded' },
    payload: asJson ? serialize(fields) : form,
    target: 'pages',
    fault: 'text-body',
  }
}

/** One malformed request to any route of the app. */
export function anyRequest(g: Gen, ctx: FuzzContext): { route: RouteEntry; request: FuzzRequest } {
  const route = pick(g, ctx.routes)
  if (ctx.providerPaths.has(route.url)) return { route, request: providerRequest(g, ctx, route) }
  if (route.url.startsWith('/oauth/interaction')) return { route, request: pagesRequest(g, route) }
  return { route, request: apiRequest(g, ctx, route) }
}

/**
 * Raw bytes of a request that may not be HTTP at all: bad request lines and versions, bad or
 * conflicting framing headers, control characters, oversized or duplicated headers, bare LFs.
 * One of these faults for sure, others now and then. Only for routes whose errors are
 * problem+json, never a well-formed write, and always complete or broken from its first bytes, so
 * that the server is never left rightly waiting for more.
 */
export function rawHttpRequest(g: Gen, token: string): { bytes: Buffer; fault: string } {
  const primary = pick(g, [
    'method',
    'target',
    'version',
    'eol',
    'host',
    'auth',
    'header',
    'framing',
  ])
  const faults: string[] = []
  const faulty = (dimension: string, what: () => string) => {
    if (dimension !== primary && !chance(g, 8)) return false
    faults.push(`${dimension} ${what()}`)
    return true
  }
  const eol = faulty('eol', () => 'bare') ? pick(g, ['\n', '\r']) : '\r\n'
  let method = pick(g, ['GET', 'GET', 'POST', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])
  if (faulty('method', () => '')) {
    method = pick(g, [
      'BREW',
      'G ET',
      'get',
      'PRI',
      'TRACE',
      'PROPFIND',
      'M-SEARCH',
      '\u0000',
      'CONNECT',
    ])
  }
  let target = pick(g, [
    '/v1/projects',
    '/v1/tasks',
    '/v1/search',
    '/healthz',
    '/v1/nope',
    '/v1/workspace',
  ])
  if (faulty('target', () => '')) {
    target = pick(g, [
      '*',
      'http://127.0.0.1/v1/projects',
      '/v1/\u0000',
      '/v1/ projects',
      '/v1/%ZZ',
      `/${'a'.repeat(int(g, 100, 20_000))}`,
      '/v1/projects\u007f',
      '/v1/\u00e9',
      '',
      'v1/projects',
      '/v1/projects?limit=%00',
      '/v1/projects#frag',
      '//v1//projects',
      '/v1/projects?%ED%A0%80',
    ])
  }
  let version = 'HTTP/1.1'
  if (faulty('version', () => '')) {
    version = pick(g, [
      'HTTP/2.0',
      'HTTP/1.2',
      'HTTP/9',
      'HTTP/1.1 extra',
      '',
      'http/1.1',
      'HTTP/1.0',
    ])
  }
  // `PRI /path` without a version reads as HTTP/0.9 and as the start of an HTTP/2 preface: Node
  // hands the request on, then closes the connection itself, so no answer can reach the client.
  // Nothing in this app can change that; the shape is left out rather than counted as a failure.
  if (method === 'PRI' && version === '') version = 'HTTP/1.1'
  const lines: string[] = []
  const host = faulty('host', () => '') ? pick(g, ['missing', 'twice', 'empty', 'spaced']) : 'ok'
  if (host === 'ok' || host === 'twice') lines.push('Host: 127.0.0.1')
  if (host === 'twice') lines.push('Host: example.test')
  if (host === 'empty') lines.push('Host:')
  if (host === 'spaced') lines.push('Host: a b')
  const auth = faulty('auth', () => '') ? pick(g, ['none', 'twice', 'garbage', 'latin1']) : 'valid'
  if (auth === 'valid' || auth === 'twice') lines.push(`Authorization: Bearer ${token}`)
  if (auth === 'twice') lines.push('authorization: Bearer wg_key_other')
  if (auth === 'garbage') lines.push(`Authorization: ${pick(g, ['Bearer', 'x', 'Bearer a b c'])}`)
  if (auth === 'latin1') lines.push('Authorization: Bearer \u00ff\u00e9')
  const header = faulty('header', () => '')
    ? pick(g, ['nul', 'no-colon', 'space-name', 'fold', 'big', 'expect', 'ctl', 'many'])
    : 'none'
  if (header === 'nul') lines.push('X-Note: a\u0000b')
  if (header === 'no-colon') lines.push('X-Note')
  if (header === 'space-name') lines.push(pick(g, ['X Note: a', 'X-Note : a', '(x): a', ': a']))
  if (header === 'fold') lines.push('X-Note: a', ' continued')
  if (header === 'big') lines.push(`X-Big: ${'x'.repeat(int(g, 17_000, 40_000))}`)
  if (header === 'expect')
    lines.push(`Expect: ${pick(g, ['tea', '100-continue, tea', '200-ok', ''])}`)
  if (header === 'ctl') lines.push(`X-Note: a${pick(g, ['\u0001', '\u007f', '\u001b[31m'])}b`)
  if (header === 'many') for (let i = 0; i < int(g, 100, 2500); i++) lines.push(`X-H${i}: ${i}`)
  // A write's body is always refused: bad JSON, a wrong type, a NUL, an unpaired surrogate.
  const body =
    method === 'GET' || method === 'HEAD'
      ? ''
      : pick(g, ['{', '{"title":1}', '{"title":"\\u0000"}', '[]', 'garbage', '{"query":"\\ud800"}'])
  if (body) lines.push('Content-Type: application/json')
  const framing = faulty('framing', () => '')
    ? pick(g, ['te', 'both', 'bad-cl', 'two-cl', 'bad-chunks', 'short-cl', 'none'])
    : 'cl'
  if (framing === 'cl') lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  if (framing === 'short-cl')
    lines.push(`Content-Length: ${Math.max(0, Buffer.byteLength(body) - 1)}`)
  if (framing === 'te' || framing === 'bad-chunks')
    lines.push(
      `Transfer-Encoding: ${pick(g, ['chunked', 'chunked', 'gzip, chunked', 'chunked, gzip', 'identity'])}`,
    )
  if (framing === 'both')
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`, 'Transfer-Encoding: chunked')
  if (framing === 'bad-cl')
    lines.push(
      `Content-Length: ${pick(g, ['five', '-1', '1.5', '0x10', ' 1 2', '99999999999999999999'])}`,
    )
  if (framing === 'two-cl') lines.push('Content-Length: 1', 'Content-Length: 2')
  let wire = body
  if (framing === 'te') wire = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`
  // Each malformed from its first bytes, so that no request leaves the server waiting for more.
  if (framing === 'bad-chunks')
    wire = pick(g, [
      'zz\r\n',
      `${(Buffer.byteLength(body) + 3).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      '1;x=\u0000\r\na\r\n0\r\n\r\n',
      '-1\r\n',
    ])
  const requestLine = [method, target, version].filter((part) => part !== '').join(' ')
  const text = `${requestLine}${eol}${lines.join(eol)}${eol}${eol}${wire}`
  return { bytes: Buffer.from(text, 'latin1'), fault: faults.join('; ') }
}
