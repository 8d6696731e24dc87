import { type Selectable, sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { AuditAction, AuditLogTable } from '../db/tables/audit.table.ts'
import type { CursorPosition } from '../lib/cursor.ts'

/** An audit row. */
export type AuditRow = Selectable<AuditLogTable>

/** Filters of the audit log. */
export interface AuditFilters {
  token_id?: string | undefined
  actor_id?: string | undefined
  resource_id?: string | undefined
  action?: AuditAction | undefined
  since?: string | undefined
  until?: string | undefined
}

/** A workspace's audit entries, newest first; `limit + 1` rows. */
export async function listAudit(
  db: Db,
  workspaceId: string,
  filters: AuditFilters,
  after: CursorPosition | null,
  limit: number,
): Promise<AuditRow[]> {
  let query = db
    .selectFrom('audit_log as a')
    .selectAll('a')
    .where('a.workspace_id', '=', workspaceId)
  if (filters.token_id) query = query.where('a.token_id', '=', filters.token_id)
  if (filters.actor_id) query = query.where('a.actor_id', '=', filters.actor_id)
  if (filters.resource_id) query = query.where('a.resource_id', '=', filters.resource_id)
  if (filters.action) query = query.where('a.action', '=', filters.action)
  if (filters.since) query = query.where('a.created_at', '>=', new Date(filters.since))
  if (filters.until) query = query.where('a.created_at', '<', new Date(filters.until))
  if (after)
    query = query.where(
      sql<boolean>`(a.created_at, a.id) < (${after[0]}::timestamptz, ${after[1]}::text)`,
    )
  return query
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit + 1)
    .execute()
}
