import type { ColumnType } from 'kysely'
import type { Timestamp } from './columns.ts'

/** `events`: the outbox, one row per webhook event, written with the change it announces. */
export interface EventsTable {
  workspace_id: string
  id: string
  type: string
  subject_id: string
  subject_type: string
  actor_id: string
  data: ColumnType<{ object: Record<string, unknown> }, string, never>
  created_at: Timestamp
  dispatched_at: Timestamp | null
  /** The writing request's W3C `traceparent`, when it was traced; its attempts join that trace. */
  trace_parent: ColumnType<string | null, string | null | undefined, never>
}

/** `idempotency_keys`: a write's key, its request fingerprint and, once done, its response. */
export interface IdempotencyKeysTable {
  workspace_id: string
  token_id: string
  key: string
  fingerprint: string
  status: 'in_progress' | 'completed'
  lock_token: string
  locked_until: Timestamp
  response_status: number | null
  response_body: string | null
  created_at: Timestamp
  expires_at: Timestamp
}

/** `rate_limit_windows`: requests per token, kind and minute, shared by every instance. */
export interface RateLimitWindowsTable {
  workspace_id: string
  token_id: string
  kind: 'read' | 'write'
  window_start: Timestamp
  hits: number
}
