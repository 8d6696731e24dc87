import type { FastifyBaseLogger } from 'fastify'
import type { Caller } from '../access/caller.ts'
import type { AppDeps } from '../app-deps.ts'
import type { RequestOrigin } from '../audit/audit-actor.ts'
import type { ChangeFeed, FeedAsker } from '../graph/changes/change-feed.ts'

/**
 * One MCP request's context: the service's dependencies, who calls (the same caller a `/v1`
 * request resolves to), where the request came from (for the audit log), the request's log, and
 * the app's change feed with what a long poll of it needs of the request.
 */
export interface McpSession {
  readonly deps: AppDeps
  readonly caller: Caller
  readonly origin: RequestOrigin
  readonly log: FastifyBaseLogger
  readonly feed: ChangeFeed
  /** The request's end (a wait stops) and its credential read again after a wait. */
  readonly asker: FeedAsker
}
