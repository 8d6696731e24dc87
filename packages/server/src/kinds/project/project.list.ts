import { createdPosition } from '../../db/keyset.ts'
import { listProjects } from '../../graph/projects/projects.queries.ts'
import { PROJECT_STATUSES } from '../../graph/projects/projects.schemas.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'

/** How the MCP `list` tool reads projects: the query of their `/v1` list. */
export const projectList: ListSource = {
  filters: ['status'],
  statuses: PROJECT_STATUSES,
  references: () => [],
  async load(session, filters, after, limit) {
    const { db } = session.deps
    const rows = await listProjects(db, session.caller.visibility, filters, after, limit)
    return rows.map((row) => ({
      id: row.id,
      type: 'project',
      title: row.name,
      url: itemUrl(session, 'project', row.id),
      facts: { status: row.status },
      position: createdPosition(row),
    }))
  },
}
