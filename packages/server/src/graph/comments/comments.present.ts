import type { Static } from 'typebox'
import type { UrlBuilder } from '../../lib/resource-urls.ts'
import type { CommentRow } from './comments.queries.ts'
import type { CommentRecord } from './comments.schemas.ts'

/** A comment as the API shows it. */
export function presentComment(row: CommentRow, urls: UrlBuilder): Static<typeof CommentRecord> {
  return {
    id: row.id,
    type: 'comment',
    ...urls.resource(row.workspace_id, 'comment', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    resource_id: row.resource_id,
    parent_id: row.parent_id,
    author_id: row.author_visible ? row.author_id : null,
    body: row.body,
  }
}
