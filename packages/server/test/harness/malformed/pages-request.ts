import type { RouteEntry } from '../route-list.ts'
import { BAD_PCT, bad } from './bad-values.ts'
import { chance, pick } from './draws.ts'
import type { FuzzRequest, Gen } from './fuzz-request.ts'
import { serialize } from './raw-json.ts'

/** A request to the OAuth and dashboard pages: form fields and addresses with NULs. */
export function pagesRequest(g: Gen, route: RouteEntry): FuzzRequest {
  const uid = pick(g, ['abc', '%00', `u${'x'.repeat(40)}`, `x%00y`])
  const path = route.url
    .replace(':uid', uid)
    .replace(/:workspaceId\([^)]*\)/, pick(g, ['wsp_abc', `wsp_${'0'.repeat(26)}`]))
    .replace(':type', pick(g, ['task', 'project', '%00', 'x']))
    .replace(':id', pick(g, ['tsk_x', '%00', `prj_${'1'.repeat(26)}`]))
  const fields: Record<string, string> = {}
  for (const name of ['email', 'password', 'csrf', 'choice', 'decision', 'return_to'])
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
