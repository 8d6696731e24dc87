import { type Selectable, sql } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import { indexedRefVisible, personRefVisible } from '../../access/visible-refs.ts'
import type { Db } from '../../db/database.ts'
import type { CanvasesTable } from '../../db/tables/canvas.table.ts'
import type { CursorPosition } from '../../lib/cursor.ts'
import { visiblePage } from '../visible-page.ts'

/** A canvas row with its visible links. */
export type CanvasRow = Selectable<CanvasesTable> & {
  project_visible: boolean
  owner_visible: boolean
  links: string[]
}

/** Filters of a canvas list. */
export interface CanvasFilters {
  ids?: readonly string[]
  project_id?: string | undefined
}

/**
 * Canvases the principal may open, newest first; `limit + 1` rows. `linkTypes` are the resource
 * types the token may read: links name only those.
 */
export async function listCanvases(
  db: Db,
  visibility: Visibility,
  linkTypes: readonly string[],
  filters: CanvasFilters,
  after: CursorPosition | null,
  limit: number,
): Promise<CanvasRow[]> {
  // The page first, then the link checks for its rows only (see visiblePage).
  return db
    .selectFrom(visiblePage(db, visibility, 'canvas', filters, after, limit))
    .innerJoin('canvases as c', (join) =>
      join
        .on('c.workspace_id', '=', visibility.principal.workspaceId)
        .onRef('c.id', '=', 'page.id'),
    )
    .selectAll('c')
    .select([
      indexedRefVisible(visibility, 'c.project_id').as('project_visible'),
      personRefVisible(visibility, 'c.owner_id').as('owner_visible'),
      sql<string[]>`array(
        select l.target_id from canvas_links l
        join resource_index x on x.workspace_id = l.workspace_id and x.id = l.target_id
        where l.workspace_id = c.workspace_id and l.canvas_id = c.id
          and x.type = any(${sql.val([...linkTypes])}::text[]) and ${visibility.row('x')}
        order by l.position)`.as('links'),
    ])
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc')
    .execute()
}
