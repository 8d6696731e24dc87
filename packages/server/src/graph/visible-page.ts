import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import { newestFirstAfter } from '../db/keyset.ts'
import type { IndexedKind } from '../db/tables/resource-index.table.ts'
import type { CursorPosition } from '../lib/cursor.ts'

/** Filters that an index row answers on its own, without its content row. */
export interface IndexFilters {
  ids?: readonly string[] | undefined
  project_id?: string | undefined
}

function visibleRows(
  db: Db,
  visibility: Visibility,
  type: IndexedKind,
  filters: IndexFilters,
  after: CursorPosition | null,
) {
  let rows = db
    .selectFrom('resource_index as r')
    .select(['r.id', 'r.created_at'])
    .where('r.workspace_id', '=', visibility.principal.workspaceId)
    .where('r.type', '=', type)
    .where(visibility.rowOfType('r', type))
    .where(newestFirstAfter('r', after))
  if (filters.ids) rows = rows.where('r.id', 'in', [...filters.ids])
  if (filters.project_id) rows = rows.where('r.project_id', '=', filters.project_id)
  return rows
}

/** Visible index rows of one type (alias `r`), for a list to narrow with its own filters. */
export type VisibleRows = ReturnType<typeof visibleRows>

/**
 * The first step of every content list: one page (`limit + 1` rows, newest first) of the ids of a
 * type that the principal may open, chosen in the resource index (visibility, filters, keyset,
 * order, limit) before any content row is read. A list joins its content and link checks to this
 * page only, so a link check can never be planned as a scan of the whole index. `narrow` adds
 * filters on the content table (as an `exists`, so unfiltered lists keep walking the index).
 */
export function visiblePage(
  db: Db,
  visibility: Visibility,
  type: IndexedKind,
  filters: IndexFilters,
  after: CursorPosition | null,
  limit: number,
  narrow: (rows: VisibleRows) => VisibleRows = (rows) => rows,
) {
  return narrow(visibleRows(db, visibility, type, filters, after))
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit + 1)
    .as('page')
}
