import type { ColumnType } from 'kysely'
import { ACTIVITY_VERBS, DIRECTORY_EVENT_TYPES } from '../../catalogue/verbs.ts'
import type { DefaultTimestamp } from './columns.ts'

/** Every action the audit log records; `GET /v1/audit?action=` accepts exactly these. */
export const AUDIT_ACTIONS = [
  ...ACTIVITY_VERBS,
  ...DIRECTORY_EVENT_TYPES,
  'workspace.created',
  'workspace.updated',
  'api_key.created',
  'api_key.rotated',
  'workspace_token.created',
  'token.revoked',
  'oauth_grant.approved',
  'oauth_grant.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.disabled',
  'webhook.deleted',
  'webhook.secret_rotated',
  'webhook.delivery_replayed',
  'webhook.recovered',
  'webhook.test_sent',
  'invitation.revoked',
] as const

/** The interfaces a change can come through. */
export const AUDIT_TRANSPORTS = ['api', 'mcp', 'web', 'cli'] as const

/** One audited action. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** `audit_log`: who changed what, with a diff; append-only. */
export interface AuditLogTable {
  workspace_id: string
  id: string
  actor_id: string
  token_id: string | null
  token_kind: string | null
  client_id: string | null
  action: AuditAction
  resource_id: string | null
  resource_type: string | null
  diff: ColumnType<Record<string, { from: unknown; to: unknown }>, string | undefined, never>
  request_id: string | null
  ip: string | null
  user_agent: string | null
  via: ColumnType<
    (typeof AUDIT_TRANSPORTS)[number],
    (typeof AUDIT_TRANSPORTS)[number] | undefined,
    never
  >
  created_at: DefaultTimestamp
}
