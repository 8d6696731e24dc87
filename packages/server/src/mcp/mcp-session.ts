import type { FastifyBaseLogger } from 'fastify'
import type { Caller } from '../access/caller.ts'
import type { AppDeps } from '../app-deps.ts'
import type { RequestOrigin } from '../audit/audit-actor.ts'

/**
 * One MCP request's context: the service's dependencies, who calls (the same caller a `/v1`
 * request resolves to), where the request came from (for the audit log) and the request's log.
 */
export interface McpSession {
  readonly deps: AppDeps
  readonly caller: Caller
  readonly origin: RequestOrigin
  readonly log: FastifyBaseLogger
}
