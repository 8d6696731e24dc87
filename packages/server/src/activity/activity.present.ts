import type { Static } from 'typebox'
import type { UrlBuilder } from '../lib/resource-urls.ts'
import type { ActivityRow } from './activity.queries.ts'
import type { ActivityRecord } from './activity.schemas.ts'

/** An activity entry as the API shows it. */
export function presentActivity(row: ActivityRow, urls: UrlBuilder): Static<typeof ActivityRecord> {
  return {
    id: row.id,
    type: 'activity',
    ...urls.resource(row.workspace_id, 'activity', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.created_at.toISOString(),
    verb: row.verb,
    actor_id: row.actor_visible ? row.actor_id : null,
    subject_id: row.subject_id,
    subject_type: row.subject_type,
    subject_title: row.subject_title,
    object_id: row.object_id,
    project_id: row.project_id,
    changes: row.changes,
  }
}
