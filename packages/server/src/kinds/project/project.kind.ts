import { sql } from 'kysely'
import { type IndexRows, onlyIds } from '../../access/resource-index.ts'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { createdPosition } from '../../db/keyset.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import { presentProject } from '../../graph/projects/projects.present.ts'
import { listProjects } from '../../graph/projects/projects.queries.ts'
import { projectRoutes } from '../../graph/projects/projects.routes.ts'
import {
  PROJECT_STATUSES,
  ProjectMembership,
  ProjectRecord,
} from '../../graph/projects/projects.schemas.ts'
import { type ListByIds, recordFromList } from '../../graph/resources/load-record.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'
import { projectPage } from './project.page.ts'
import { summarizeProject } from './project.summary.ts'

/**
 * A project's row: open to the workspace when its visibility is `workspace`, else to its members.
 */
const projectIndexRows: IndexRows = {
  titled: true,
  rows: (
    ws,
    ids,
    source = sql.table('projects'),
  ) => sql`select p.workspace_id, p.id, 'project', p.id, p.name, p.description,
           p.visibility = 'workspace', array[p.id], p.created_at, p.updated_at
    from ${source} p where p.workspace_id = ${ws} ${onlyIds(sql.ref('p.id'), ids)}`,
}

/** The projects among `ids` the caller may open: what its record and page names read. */
const byIds: ListByIds<Awaited<ReturnType<typeof listProjects>>[number]> = (deps, caller, ids) =>
  listProjects(deps.db, caller.visibility, { ids }, null, ids.length)

/** A project as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const projectRecord = recordFromList(ProjectRecord, byIds, (row, deps) =>
  presentProject(row, deps.urls),
)

/** The neighbours of a project, as `(rel, rank, id)` rows. */
const projectLinks: LinkEdges = (ws, id) => sql`
    select 'owner' as rel, 1 as rank, owner_id as id from projects where workspace_id = ${ws} and id = ${id}
    union all select 'member', 2, person_id from project_members where workspace_id = ${ws} and project_id = ${id} and person_id is not null
    union all select 'team', 3, team_id from project_members where workspace_id = ${ws} and project_id = ${id} and team_id is not null
    union all select 'canvas', 4, id from canvases where workspace_id = ${ws} and project_id = ${id}
    union all select 'task', 5, id from tasks where workspace_id = ${ws} and project_id = ${id} and parent_id is null
    union all select 'okr', 6, id from objectives where workspace_id = ${ws} and project_id = ${id}`

/** How the MCP `list` tool reads projects: the query of their `/v1` list. */
const projectList: ListSource = {
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

/** The project kind: its catalogue data and the parts its consumers read. */
export const projectKind: KindDescriptor = {
  ...KINDS.project,
  summarize: summarizeProject,
  index: projectIndexRows,
  list: projectList,
  record: projectRecord,
  links: projectLinks,
  page: projectPage,
  names: byIds,
  routes: projectRoutes,
  webhookEvents: {
    'project.created': {
      title: 'ProjectCreatedEvent',
      object: ProjectRecord,
      about: 'A project was made; its maker owns it and belongs to it.',
    },
    'project.updated': {
      title: 'ProjectUpdatedEvent',
      object: ProjectRecord,
      about: 'A project changed its name, description, status, visibility or owner.',
    },
    'project.member_added': {
      title: 'ProjectMemberAddedEvent',
      object: ProjectMembership,
      about: 'A person, team or integration was added to a project.',
    },
    'project.member_removed': {
      title: 'ProjectMemberRemovedEvent',
      object: ProjectMembership,
      about: 'A person, team or integration was removed from a project.',
    },
  },
}
