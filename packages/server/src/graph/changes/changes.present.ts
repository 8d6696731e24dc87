import type { Static } from 'typebox'
import type { ChangeRow } from './changes.queries.ts'
import type { ChangeRecord } from './changes.schemas.ts'

/** A change as the feed shows it; its field changes already shown as its reader may see them. */
export function presentChange(row: ChangeRow): Static<typeof ChangeRecord> {
  return {
    id: row.id,
    event: row.verb,
    resource_type: row.subject_type as Static<typeof ChangeRecord>['resource_type'],
    resource_id: row.subject_id,
    occurred_at: row.created_at.toISOString(),
    changes: row.changes,
  }
}
