import type { Insertable } from 'kysely'
import type { Db } from '../db/database.ts'
import type { AUDIT_TRANSPORTS, AuditAction, AuditLogTable } from '../db/tables/audit.table.ts'
import { newId } from '../lib/ids.ts'
import { type FieldDiff, jsonDiff } from './json-diff.ts'

/** Who did something and through what: taken from the request by its transport. */
export interface AuditActor {
  workspaceId: string
  actorId: string
  tokenId: string | null
  tokenKind: string | null
  clientId: string | null
  requestId: string | null
  ip: string | null
  userAgent: string | null
  /** The interface the change came through; the REST API when left out. */
  via?: AuditTransport
}

/** An interface a change can come through. */
export type AuditTransport = (typeof AUDIT_TRANSPORTS)[number]

/** One audited action. */
export interface AuditEntry {
  action: AuditAction
  resourceId: string | null
  resourceType: string | null
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

/** Appends an audit entry; call it in the transaction of the change it records. */
export async function recordAudit(
  db: Db,
  actor: AuditActor,
  entry: AuditEntry,
  at: Date,
): Promise<Record<string, FieldDiff>> {
  const { row, diff } = auditRow(actor, entry, at)
  await db.insertInto('audit_log').values(row).execute()
  return diff
}

/** The audit log row of an entry, for a statement that writes it with others. */
export function auditRow(actor: AuditActor, entry: AuditEntry, at: Date) {
  const diff = jsonDiff(entry.before, entry.after)
  const row = {
    workspace_id: actor.workspaceId,
    id: newId('audit'),
    actor_id: actor.actorId,
    token_id: actor.tokenId,
    token_kind: actor.tokenKind,
    client_id: actor.clientId,
    action: entry.action,
    resource_id: entry.resourceId,
    resource_type: entry.resourceType,
    diff: JSON.stringify(diff),
    request_id: actor.requestId,
    ip: actor.ip,
    user_agent: actor.userAgent?.slice(0, 500) ?? null,
    via: actor.via ?? 'api',
    created_at: at,
  } satisfies Insertable<AuditLogTable>
  return { row, diff }
}
