import { listPeople, namePosition } from '../../graph/people/people.queries.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'

/** How the MCP `list` tool reads people: the query of their `/v1` list. */
export const personList: ListSource = {
  filters: ['team_id'],
  references: (f) => [['/team_id', 'team', f.team_id]],
  async load(session, filters, after, limit) {
    const { db } = session.deps
    const rows = await listPeople(db, session.caller.visibility, filters, after, limit)
    return rows.map((row) => ({
      id: row.id,
      type: 'person',
      title: row.name,
      url: itemUrl(session, 'person', row.id),
      facts: { role: row.role },
      position: namePosition(row),
    }))
  },
}
