import type { IncomingMessage } from 'node:http'
import { newId } from '../lib/ids.ts'

const WELL_FORMED = /^[A-Za-z0-9_.:-]{1,128}$/

/**
 * The request's id: a caller's well-formed `x-request-id` is kept so traces join up across
 * services; anything else gets a fresh `req_…` id.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : newId('request')
}
