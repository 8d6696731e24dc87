import type { Selectable } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import { actorRefVisible } from '../../access/visible-refs.ts'
import type { Db } from '../../db/database.ts'
import { oldestFirstAfter } from '../../db/keyset.ts'
import type { CommentsTable } from '../../db/tables/comment.table.ts'
import type { CursorPosition } from '../../lib/cursor.ts'

/** A comment row and whether its author is visible. */
export type CommentRow = Selectable<CommentsTable> & { author_visible: boolean }

/**
 * Comments the principal may open, oldest first (the order of a conversation); `limit + 1` rows.
 * A comment is open exactly when the resource it is on is open.
 */
export async function listComments(
  db: Db,
  visibility: Visibility,
  filters: { ids?: readonly string[]; resource_id?: string },
  after: CursorPosition | null,
  limit: number,
): Promise<CommentRow[]> {
  let page = db
    .selectFrom('comments as c')
    .innerJoin('resource_index as r', (join) =>
      join.onRef('r.workspace_id', '=', 'c.workspace_id').onRef('r.id', '=', 'c.id'),
    )
    .select(['c.id', 'c.created_at'])
    .where('c.workspace_id', '=', visibility.principal.workspaceId)
    .where(visibility.row())
    .where(oldestFirstAfter('c', after))
  if (filters.ids) page = page.where('c.id', 'in', [...filters.ids])
  if (filters.resource_id) page = page.where('c.resource_id', '=', filters.resource_id)
  return db
    .selectFrom(
      page
        .orderBy('c.created_at')
        .orderBy('c.id')
        .limit(limit + 1)
        .as('page'),
    )
    .innerJoin('comments as c', (join) =>
      join
        .on('c.workspace_id', '=', visibility.principal.workspaceId)
        .onRef('c.id', '=', 'page.id'),
    )
    .selectAll('c')
    .select(actorRefVisible(visibility, 'c.author_id').as('author_visible'))
    .orderBy('page.created_at')
    .orderBy('page.id')
    .execute()
}
