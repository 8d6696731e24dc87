import type { Static } from 'typebox'
import type { UrlBuilder } from '../../lib/resource-urls.ts'
import { okrHealth } from './okr-health.ts'
import { keyResultProgress } from './okr-progress.ts'
import type { OkrRow } from './okrs.queries.ts'
import type { OkrRecord } from './okrs.schemas.ts'

/**
 * An objective with its key results as the API shows it, and its health on `today`; hidden
 * links are null.
 */
export function presentOkr(row: OkrRow, urls: UrlBuilder, today: Date): Static<typeof OkrRecord> {
  return {
    id: row.id,
    type: 'okr',
    ...urls.resource(row.workspace_id, 'okr', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    title: row.title,
    session: row.session,
    owner_id: row.owner_visible ? row.owner_id : null,
    team_id: row.team_visible ? row.team_id : null,
    project_id: row.project_visible ? row.project_id : null,
    visibility: row.visibility,
    status: row.status,
    closed_at: row.closed_at?.toISOString() ?? null,
    progress: row.progress,
    // A key result's version is for citations; the record shows its objective's.
    key_results: row.key_results.map(({ updated_at: _version, ...kr }) => ({
      ...kr,
      progress: keyResultProgress(kr),
    })),
    confidence: row.confidence === null ? null : Number(row.confidence),
    health: okrHealth(
      row.progress,
      row.confidence === null ? null : Number(row.confidence),
      row.session,
      today,
    ),
  }
}
