import { openInAudit } from '../access/audit-visibility.ts'
import type { Caller } from '../access/caller.ts'
import type { Db } from '../db/database.ts'
import type { CursorPosition } from '../lib/cursor.ts'
import { idsShownBy } from './audit.present.ts'
import { type AuditFilters, type AuditRow, listAudit } from './audit.queries.ts'

/** An audit row with the ids its reader may open: what `presentAuditEntry` needs. */
export interface AuditEntryRead {
  readonly row: AuditRow
  readonly open: ReadonlySet<string>
}

/**
 * `limit + 1` audit entries as `caller` may see them, for `GET /v1/audit` and the dashboard's
 * audit page alike. A resource the reader may not open is filtered on like one that does not
 * exist; what each entry shows is decided by `openInAudit` now, at read time.
 */
export async function readAuditEntries(
  db: Db,
  caller: Caller,
  filters: AuditFilters,
  after: CursorPosition | null,
  limit: number,
): Promise<AuditEntryRead[]> {
  const { resource_id: resourceId } = filters
  if (resourceId !== undefined && !(await openInAudit(db, caller, [resourceId])).has(resourceId))
    return []
  const rows = await listAudit(db, caller.principal.workspaceId, filters, after, limit)
  const open = await openInAudit(db, caller, idsShownBy(rows))
  return rows.map((row) => ({ row, open }))
}

/** The keyset position of an entry read. */
export function auditPosition({ row }: AuditEntryRead): CursorPosition {
  return [row.created_at.toISOString(), row.id]
}
