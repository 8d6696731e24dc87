import type { ColumnType } from 'kysely'
import type { Timestamp } from './columns.ts'

/** `webhook_endpoints`: a subscriber's URL, the events it wants, its sealed secrets and health. */
export interface WebhookEndpointsTable {
  workspace_id: string
  id: string
  url: string
  description: string | null
  event_types: string[]
  /** Only events whose subject belongs to one of these projects; null, every project and none. */
  project_ids: string[] | null
  status: 'active' | 'disabled'
  disabled_reason: EndpointDisabledReason | null
  disabled_at: Timestamp | null
  owner_id: string
  owner_kind: 'person' | 'integration'
  owner_scopes: string[]
  /** The fence of the credential that created or re-enabled it; null, unfenced. */
  owner_project_ids: string[] | null
  /** The API key, workspace token or OAuth grant the endpoint lives no longer than. */
  credential_id: string
  secret_sealed: string
  previous_secret_sealed: string | null
  previous_expires_at: Timestamp | null
  failing_since: Timestamp | null
  last_success_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
  deleted_at: Timestamp | null
}

/** Why an endpoint stopped: its owner, a 410, five days of failures, or its credential ended. */
export const ENDPOINT_DISABLED_REASONS = [
  'disabled_by_owner',
  'receiver_gone',
  'failing',
  'credential_revoked',
] as const

/** One reason an endpoint is disabled. */
export type EndpointDisabledReason = (typeof ENDPOINT_DISABLED_REASONS)[number]

/** A delivery's state; `in_flight` is internal and shown to subscribers as `pending`. */
export type DeliveryStatus =
  | 'pending'
  | 'in_flight'
  | 'retrying'
  | 'succeeded'
  | 'failed'
  | 'skipped'

/** `webhook_deliveries`: one event for one endpoint; the queue and the state subscribers see. */
export interface WebhookDeliveriesTable {
  workspace_id: string
  id: string
  endpoint_id: string
  event_id: string
  event_type: string
  status: DeliveryStatus
  attempt_count: ColumnType<number, number | undefined, number>
  run_attempts: ColumnType<number, number | undefined, number>
  next_attempt_at: Timestamp | null
  locked_by: string | null
  locked_until: Timestamp | null
  last_error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** `webhook_attempts`: the log of every request sent, with what came back. */
export interface WebhookAttemptsTable {
  workspace_id: string
  delivery_id: string
  attempt: number
  trigger: 'auto' | 'replay'
  started_at: Timestamp
  duration_ms: number
  url: string
  request_headers: ColumnType<Record<string, string>, string, string>
  request_body: string
  response_status: number | null
  response_body: string | null
  error_kind: string | null
}
