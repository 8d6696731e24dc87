import { listTeams, namePosition } from '../../graph/people/people.queries.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'

/** How the MCP `list` tool reads teams: the query of their `/v1` list. */
export const teamList: ListSource = {
  filters: [],
  references: () => [],
  async load(session, _filters, after, limit) {
    const rows = await listTeams(session.deps.db, session.caller.visibility, {}, after, limit)
    return rows.map((row) => ({
      id: row.id,
      type: 'team',
      title: row.name,
      url: itemUrl(session, 'team', row.id),
      facts: {},
      position: namePosition(row),
    }))
  },
}
