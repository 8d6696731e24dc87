import { type Selectable, sql } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import { personRefVisible, teamRefVisible } from '../../access/visible-refs.ts'
import type { Db } from '../../db/database.ts'
import type { ProjectsTable } from '../../db/tables/project.table.ts'
import type { CursorPosition } from '../../lib/cursor.ts'
import { visiblePage } from '../visible-page.ts'

/** A project row with its links already reduced to what the principal may see. */
export type ProjectRow = Selectable<ProjectsTable> & {
  /** People who belong to the project, directly or through a team, that the principal can see. */
  member_ids: string[]
  /** Member teams the principal can see. */
  team_ids: string[]
  owner_visible: boolean
}

/** Filters of a project list. */
export interface ProjectFilters {
  ids?: readonly string[]
  status?: readonly string[] | undefined
}

/**
 * Projects the principal may open, newest first, after a keyset position; `limit + 1` rows. One
 * statement: the visibility filter, the page and each project's visible members together.
 */
export async function listProjects(
  db: Db,
  visibility: Visibility,
  filters: ProjectFilters,
  after: CursorPosition | null,
  limit: number,
): Promise<ProjectRow[]> {
  const status = filters.status as ProjectRow['status'][] | undefined
  const page = visiblePage(db, visibility, 'project', filters, after, limit, (rows) =>
    status?.length
      ? rows.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('projects as p')
              .select('p.id')
              .whereRef('p.workspace_id', '=', 'r.workspace_id')
              .whereRef('p.id', '=', 'r.id')
              .where('p.status', 'in', status),
          ),
        )
      : rows,
  )
  // The page first, then members and link checks for its rows only (see visiblePage).
  return db
    .selectFrom(page)
    .innerJoin('projects as p', (join) =>
      join
        .on('p.workspace_id', '=', visibility.principal.workspaceId)
        .onRef('p.id', '=', 'page.id'),
    )
    .selectAll('p')
    .select([
      sql<string[]>`array(
        select distinct m.person_id from (
          select pm.person_id from project_members pm
          where pm.workspace_id = p.workspace_id and pm.project_id = p.id and pm.person_id is not null
          union all
          select tm.person_id from project_members pm
          join team_members tm on tm.workspace_id = pm.workspace_id and tm.team_id = pm.team_id
          where pm.workspace_id = p.workspace_id and pm.project_id = p.id and pm.team_id is not null
        ) m
        where ${personRefVisible(visibility, 'm.person_id')}
        order by m.person_id)`.as('member_ids'),
      sql<string[]>`array(
        select pm.team_id from project_members pm
        where pm.workspace_id = p.workspace_id and pm.project_id = p.id and ${teamRefVisible(visibility, 'pm.team_id')}
        order by pm.team_id)`.as('team_ids'),
      personRefVisible(visibility, 'p.owner_id').as('owner_visible'),
    ])
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc')
    .execute()
}
