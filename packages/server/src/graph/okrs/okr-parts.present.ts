import type { Static } from 'typebox'
import type { UrlBuilder } from '../../lib/resource-urls.ts'
import type { CheckinRow, KeyResultRow } from './okr-parts.queries.ts'
import type { CheckinRecord, KeyResultRecord } from './okr-parts.schemas.ts'
import { keyResultProgress } from './okr-progress.ts'

/** A key result as the API shows it. */
export function presentKeyResult(
  row: KeyResultRow,
  urls: UrlBuilder,
): Static<typeof KeyResultRecord> {
  return {
    id: row.id,
    type: 'key_result',
    ...urls.resource(row.workspace_id, 'key_result', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    objective_id: row.objective_id,
    title: row.title,
    start: row.start,
    target: row.target,
    current: row.current,
    unit: row.unit,
    progress: keyResultProgress(row),
  }
}

/** A check-in as the API shows it. */
export function presentCheckin(row: CheckinRow, urls: UrlBuilder): Static<typeof CheckinRecord> {
  return {
    id: row.id,
    type: 'checkin',
    ...urls.resource(row.workspace_id, 'checkin', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.created_at.toISOString(),
    key_result_id: row.key_result_id,
    objective_id: row.objective_id,
    value: row.value,
    confidence: row.confidence,
    note: row.note,
    author_id: row.author_visible ? row.author_id : null,
  }
}
