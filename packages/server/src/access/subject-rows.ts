import { type RawBuilder, sql } from 'kysely'

/*
 * The rows an activity entry's subject is tested by: the resource index for content, and one row
 * for each team and person of the workspace, compiled here from the directory's rules
 * (docs/permissions.md, "Who may open what") into the index's shape, so that `Visibility.row`
 * decides a change to a team or a person exactly as it decides one to a task.
 *
 * - A team: every member (`ws_visible`), and a guest in it (its id in the ACL); integrations none.
 * - A person: every member, and a guest or integration who is that person or shares a project
 *   with them (the person's own id and every project they belong to, directly or through a team,
 *   in the ACL: a guest or an integration opens exactly the projects it belongs to).
 *
 * Neither has a project, so a credential fenced to projects, which opens only its projects'
 * content, sees no change to the directory.
 */

/** The columns an activity entry's subject row is read by. */
export const SUBJECT_COLUMNS = sql.raw(
  'workspace_id, id, type, project_id, title, body, ws_visible, acl, updated_at',
)

/** A subject row: a resource-index row, or one compiled for a team or a person. */
export interface SubjectRow {
  workspace_id: string
  id: string
  type: string
  project_id: string | null
  title: string
  body: string
  ws_visible: boolean
  acl: string[]
  updated_at: Date
}

/** Every subject row of the workspace: resource-index rows, then teams and people. */
export function subjectRows(workspaceId: string): RawBuilder<SubjectRow> {
  return sql<SubjectRow>`(
    select ${SUBJECT_COLUMNS} from resource_index where workspace_id = ${workspaceId}
    union all
    select t.workspace_id, t.id, 'team', null, t.name, '', true, array[t.id], t.updated_at
    from teams t where t.workspace_id = ${workspaceId}
    union all
    select p.workspace_id, p.id, 'person', null, p.name, '', true,
      array[p.id] || array(
        select pm.project_id from project_members pm
        where pm.workspace_id = p.workspace_id and pm.person_id = p.id
        union
        select pm.project_id from team_members tm
        join project_members pm on pm.workspace_id = tm.workspace_id and pm.team_id = tm.team_id
        where tm.workspace_id = p.workspace_id and tm.person_id = p.id),
      p.updated_at
    from people p where p.workspace_id = ${workspaceId})`
}
