import { createdPosition } from '../../db/keyset.ts'
import { listOkrs } from '../../graph/okrs/okrs.queries.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'

/** How the MCP `list` tool reads OKRs: the query of their `/v1` list. */
export const okrList: ListSource = {
  filters: ['project_id', 'team_id'],
  references: (f) => [
    ['/project_id', 'project', f.project_id],
    ['/team_id', 'team', f.team_id],
  ],
  async load(session, filters, after, limit) {
    const rows = await listOkrs(session.deps.db, session.caller.visibility, filters, after, limit)
    return rows.map((row) => ({
      id: row.id,
      type: 'okr',
      title: row.title,
      url: itemUrl(session, 'okr', row.id),
      facts: { session: row.session },
      position: createdPosition(row),
    }))
  },
}
