import type { ColumnType } from 'kysely'
import type { DefaultTimestamp } from './columns.ts'

/** `audit_log`: who changed what, with a diff; append-only. */
export interface AuditLogTable {
  workspace_id: string
  id: string
  actor_id: string
  token_id: string | null
  token_kind: string | null
  client_id: string | null
  action: string
  resource_id: string | null
  resource_type: string | null
  diff: ColumnType<Record<string, { from: unknown; to: unknown }>, string | undefined, never>
  request_id: string | null
  ip: string | null
  user_agent: string | null
  created_at: DefaultTimestamp
}
