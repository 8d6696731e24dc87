import type { RouteEntry } from '../route-list.ts'
import {
  type ApiFault,
  type FaultFamily,
  plausibleDraft,
  type RouteShape,
  routeShape,
  toRequest,
} from './api-draft.ts'
import { bodyFault } from './body-faults.ts'
import { pick } from './draws.ts'
import type { FuzzContext, FuzzRequest, Gen } from './fuzz-request.ts'
import { headerFault } from './header-faults.ts'
import { pathFault, queryFault } from './url-faults.ts'

// The family that applies each fault.
const FAMILY: Record<ApiFault, FaultFamily> = {
  'text-path': pathFault,
  'undecodable-path': pathFault,
  'text-query': queryFault,
  'query-types': queryFault,
  'text-header': headerFault,
  token: headerFault,
  'content-type': headerFault,
  'idempotency-key': headerFault,
  'text-body': bodyFault,
  'invalid-json': bodyFault,
  'body-types': bodyFault,
  'top-level': bodyFault,
  'unknown-field': bodyFault,
}

// The faults that fit the route; one listed twice is drawn twice as often. Their order is part of
// what a seed generates.
function faultsFor({ params, hasBody, bodySchema }: RouteShape): ApiFault[] {
  const faults: ApiFault[] = ['text-query', 'text-header', 'token']
  if (params.length > 0) faults.push('text-path', 'text-path', 'undecodable-path')
  if (hasBody) {
    faults.push('text-body', 'text-body', 'text-body', 'invalid-json', 'content-type')
    faults.push('idempotency-key')
  } else faults.push('query-types', 'query-types')
  if (hasBody && bodySchema) faults.push('body-types', 'body-types', 'top-level', 'unknown-field')
  return faults
}

/** A request to a route of this API (`/v1`, health, metadata) with at least one fault. */
export function apiRequest(g: Gen, ctx: FuzzContext, route: RouteEntry): FuzzRequest {
  const shape = routeShape(ctx, route)
  const fault = pick(g, faultsFor(shape))
  const draft = plausibleDraft(g, ctx, route, shape)
  FAMILY[fault](g, fault, draft, shape, ctx)
  return toRequest(route, draft, fault)
}
