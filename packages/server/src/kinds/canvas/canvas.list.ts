import { createdPosition } from '../../db/keyset.ts'
import { listCanvases } from '../../graph/canvases/canvases.queries.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'

/** How the MCP `list` tool reads canvases: the query of their `/v1` list. */
export const canvasList: ListSource = {
  filters: ['project_id'],
  references: (f) => [['/project_id', 'project', f.project_id]],
  async load(session, filters, after, limit) {
    const { visibility, readableKinds } = session.caller
    const rows = await listCanvases(
      session.deps.db,
      visibility,
      readableKinds,
      filters,
      after,
      limit,
    )
    return rows.map((row) => ({
      id: row.id,
      type: 'canvas',
      title: row.title,
      url: itemUrl(session, 'canvas', row.id),
      facts: { project_id: row.project_id },
      position: createdPosition(row),
    }))
  },
}
