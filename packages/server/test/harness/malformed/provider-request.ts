import type { RouteEntry } from '../route-list.ts'
import { bad } from './bad-values.ts'
import { chance, int, pick } from './draws.ts'
import type { FuzzContext, FuzzRequest, Gen } from './fuzz-request.ts'
import { serialize } from './raw-json.ts'

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
