import type { CursorCodec, CursorPosition } from '../lib/cursor.ts'
import { cursorBinding, cutPage, type PageOf, type RouteRequest, readCursor } from './paging.ts'

/** How one list endpoint loads and presents its rows. */
export interface ListSpec<Row, Item> {
  /** `limit + 1` rows after the keyset position. */
  load(after: CursorPosition | null, limit: number): Promise<Row[]>
  position(row: NoInfer<Row>): CursorPosition
  present(row: NoInfer<Row>): Item
}

/** Answers a list request: reads and checks the cursor, loads one page, presents it. */
export async function listResponse<Row, Item>(
  cursors: CursorCodec,
  request: RouteRequest,
  query: { limit?: number; cursor?: string },
  spec: ListSpec<Row, Item>,
): Promise<PageOf<Item>> {
  const limit = query.limit ?? 20
  const binding = cursorBinding(request, query)
  const after = readCursor(cursors, query.cursor, binding)
  const rows = await spec.load(after, limit)
  return cutPage(rows, limit, spec.position, cursors, binding, spec.present)
}
