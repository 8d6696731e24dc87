import type { RouteEntry } from '../route-list.ts'
import { BAD_PCT, BAD_TEXT, UNDECODABLE } from './bad-values.ts'
import { chance, int, pick } from './draws.ts'
import type { Gen } from './fuzz-request.ts'
import { deepArray, deepObject, serialize } from './raw-json.ts'

// Requests to the pages (the dashboard's and the OAuth sign-in and consent pages) as a browser,
// a forger or a careless script might send them: real and made-up ids in the path, forms with
// the fields of every page and others, right and wrong CSRF tokens, odd Origin and Referer,
// bodies at and past the size limit, deeply nested ones.

/** What a page request is drawn from: who may be signed in, and the ids and tokens they have. */
export interface PageFuzzContext {
  /** PUBLIC_URL's origin. */
  origin: string
  /** A signed-in session: its cookie and its forms' token. */
  session: { cookie: string; csrf: string }
  /** A signed-out browser on the sign-in page: its pre-session cookie and the form's token. */
  signIn: { cookie: string; csrf: string }
  /** An email and password that sign in, for some attempts to succeed. */
  person: { email: string; password: string }
  /** An OAuth interaction in progress: its id, its cookies and its forms' token. */
  interaction: { uid: string; cookie: string; csrf: string }
  /** Real ids of every kind. */
  ids: string[]
}

/** A drawn request, and whether it carries everything a form of our own pages carries. */
export interface PageRequest {
  method: string
  url: string
  headers: Record<string, string>
  payload?: string
  /** With its own cookie (session, pre-session or interaction), the right token, and no foreign origin or site. */
  genuine: boolean
  fault: string
}

/** `return_to` values: local paths, other origins, and what a Location header cannot carry. */
export const RETURN_TO = [
  '/',
  '/webhooks',
  '/ā',
  '/€?q=€#€',
  '/😀',
  '//evil.example/x',
  'https://evil.example/',
  '/\\evil.example',
  '/%5C%5Cevil.example',
  'javascript:alert(1)',
  '/\t/evil.example',
  '/sign-in',
  `/${'a'.repeat(2100)}`,
  '/x\r\nset-cookie: a=b',
] as const

// Every field some page reads, and some none does.
const FIELDS = [
  'email',
  'password',
  'choice',
  'decision',
  'return_to',
  'project_ids',
  'status',
  'events',
  'url',
  'description',
  'grace_period_seconds',
  'force',
  'since',
  'name',
  'scopes',
  'lifetime',
  'overlap_seconds',
  'form_key',
  'integration_id',
  'integration_name',
  'done',
  '__proto__',
  'constructor',
  'a[b][c]',
] as const

function value(g: Gen, ctx: PageFuzzContext): string {
  switch (int(g, 0, 9)) {
    case 0:
      return pick(g, BAD_TEXT)
    case 1:
      return pick(g, RETURN_TO)
    case 2:
      return pick(g, ctx.ids)
    case 3:
      return 'x'.repeat(int(g, 0, 5000))
    case 4:
      return pick(g, ['approve', 'deny', 'active', 'disabled', 'true', '0', '-1', '1e9', ''])
    case 5:
      return pick(g, ['task.created', 'comment.created', 'webhook.test', 'project:read', 'admin'])
    case 6:
      return pick(g, ['https://hooks.example.test/in', 'http://10.0.0.1/', 'ftp://x', 'not a url'])
    case 7:
      return pick(g, [ctx.person.email, ctx.person.password, 'nobody@example.test', ' '])
    case 8:
      return `${pick(g, ctx.ids)}.${pick(g, ctx.ids)}.${int(g, 0, 2 ** 31)}.${'A'.repeat(43)}`
    default:
      return pick(g, ['2026-01-01T00:00', 'é', '\u{10FFFF}', '<script>', '"\'><b>'])
  }
}

// An id for a path parameter: real, made up in the right shape, or no id at all.
function pathId(g: Gen, ctx: PageFuzzContext, name: string): string {
  if (name === 'uid' && chance(g, 60)) return ctx.interaction.uid
  switch (int(g, 0, 5)) {
    case 0:
    case 1:
      return pick(g, ctx.ids)
    case 2:
      return `${pick(g, ['whk', 'dlv', 'key', 'grt', 'prj', 'tsk', 'usr', 'wsp'])}_${'0'.repeat(26)}`
    case 3:
      return pick(g, ['whk_unknown', 'x', '..', '%2e%2e', 'a'.repeat(300)])
    case 4:
      return pick(g, [...BAD_PCT, ...UNDECODABLE])
    default:
      return encodeURIComponent(pick(g, ['ā', '😀', '\u{10FFFF}', ' ', '/']))
  }
}

function headerValue(g: Gen, own: string, foreign: readonly string[]): string | undefined {
  return pick(g, [undefined, undefined, own, own, ...foreign])
}

/** One request to a page route: mostly honest in shape, with one or more things wrong. */
export function pageRequest(g: Gen, ctx: PageFuzzContext, route: RouteEntry): PageRequest {
  const interaction = route.url.startsWith('/oauth/interaction')
  // The sign-in forms belong to a signed-out browser: its pre-session cookie and token.
  const own = interaction
    ? ctx.interaction
    : route.url.startsWith('/sign-in')
      ? ctx.signIn
      : ctx.session
  const path = route.url.replace(/:([A-Za-z]+)(\([^)]*\))?/g, (_m, name: string) =>
    pathId(g, ctx, name),
  )
  const cookies: string[] = []
  const withOwnCookie = chance(g, 75)
  if (withOwnCookie) cookies.push(own.cookie)
  if (chance(g, 15))
    cookies.push(pick(g, ['workgraph_session=AAAA', 'workgraph_sign_in=x', '_interaction=nope']))
  const origin = headerValue(g, ctx.origin, [
    'null',
    'https://evil.example',
    `${ctx.origin}.evil.example`,
    'http://127.0.0.1',
    '',
  ])
  const site = pick(g, [undefined, 'same-origin', 'same-origin', 'none', 'cross-site', 'same-site'])
  const referer = headerValue(g, `${ctx.origin}/`, ['https://evil.example/', 'not a url'])
  const headers: Record<string, string> = {}
  if (cookies.length > 0) headers.cookie = cookies.join('; ')
  if (origin !== undefined) headers.origin = origin
  if (site !== undefined) headers['sec-fetch-site'] = site
  if (referer !== undefined) headers.referer = referer
  headers.accept = 'text/html'
  if (route.method === 'GET' || route.method === 'HEAD') {
    const query = new URLSearchParams()
    for (const name of ['return_to', 'done', 'action', 'actor_id', 'cursor'])
      if (chance(g, 30)) query.set(name, value(g, ctx))
    const search = query.size > 0 ? `?${query}` : chance(g, 10) ? `?q=${pick(g, BAD_PCT)}` : ''
    return { method: route.method, url: `${path}${search}`, headers, genuine: false, fault: 'get' }
  }
  const rightToken = own.csrf
  const csrf = pick(g, [
    rightToken,
    rightToken,
    rightToken,
    undefined,
    'x'.repeat(43),
    '',
    [rightToken, 'x'],
  ])
  const fields: [string, string][] = []
  if (typeof csrf === 'string') fields.push(['csrf', csrf])
  else if (csrf) for (const one of csrf) fields.push(['csrf', one])
  // Half the sign-ins are the right email and password, so that some get as far as redirecting.
  if (/\/(sign-in|login)$/.test(route.url) && chance(g, 50))
    fields.push(['email', ctx.person.email], ['password', ctx.person.password])
  for (const name of FIELDS) {
    if (!chance(g, 25)) continue
    for (let i = int(g, 1, 3); i > 0; i--) fields.push([name, value(g, ctx)])
  }
  const genuine =
    withOwnCookie &&
    csrf === rightToken &&
    (origin === undefined || origin === ctx.origin) &&
    (site === undefined || site === 'same-origin' || site === 'none')
  const shape = int(g, 0, 19)
  if (shape === 0) {
    // Past the 16 KiB a page's form may have.
    headers['content-type'] = 'application/x-www-form-urlencoded'
    const payload = `${new URLSearchParams(fields)}&pad=${'p'.repeat(17 * 1024)}`
    return { method: route.method, url: path, headers, payload, genuine, fault: 'huge body' }
  }
  if (shape === 1) {
    // Just under it, in thousands of fields.
    headers['content-type'] = 'application/x-www-form-urlencoded'
    const many = Array.from({ length: 1500 }, (_v, i) => `project_ids=${i}`).join('&')
    const payload = `${new URLSearchParams(fields)}&${many}`
    return { method: route.method, url: path, headers, payload, genuine, fault: 'many fields' }
  }
  if (shape === 2) {
    // Deeply nested keys, as some parsers read them.
    headers['content-type'] = 'application/x-www-form-urlencoded'
    const key = `a${'[b]'.repeat(int(g, 100, 1500))}`
    const payload = `${new URLSearchParams(fields)}&${key}=1`
    return { method: route.method, url: path, headers, payload, genuine, fault: 'nested keys' }
  }
  if (shape === 3) {
    headers['content-type'] = 'application/json'
    const deep = int(g, 0, 1) === 0 ? deepArray(int(g, 100, 5000)) : deepObject(int(g, 100, 5000))
    const payload = serialize({ ...Object.fromEntries(fields), nested: deep })
    return { method: route.method, url: path, headers, payload, genuine, fault: 'nested json' }
  }
  if (shape === 4) {
    headers['content-type'] = pick(g, [
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/xml',
    ])
    const payload = new URLSearchParams(fields).toString()
    return {
      method: route.method,
      url: path,
      headers,
      payload,
      genuine: false,
      fault: 'content type',
    }
  }
  headers['content-type'] = 'application/x-www-form-urlencoded'
  const payload = new URLSearchParams(fields).toString()
  return { method: route.method, url: path, headers, payload, genuine, fault: 'form' }
}
