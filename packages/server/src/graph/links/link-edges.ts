import { type RawBuilder, sql } from 'kysely'
import type { IdKind } from '../../lib/ids.ts'

/*
 * The neighbours of each kind of resource, as `(rel, rank, id)` rows: what `GET
 * /v1/resources/:id/links` and summaries walk. Visibility is applied by the caller to the ids
 * these produce; nothing here decides who may see what.
 */

type Edges = (ws: string, id: string) => RawBuilder<unknown>

const EDGES: Partial<Record<IdKind, Edges>> = {
  project: (ws, id) => sql`
    select 'owner' as rel, 1 as rank, owner_id as id from projects where workspace_id = ${ws} and id = ${id}
    union all select 'member', 2, person_id from project_members where workspace_id = ${ws} and project_id = ${id} and person_id is not null
    union all select 'team', 3, team_id from project_members where workspace_id = ${ws} and project_id = ${id} and team_id is not null
    union all select 'canvas', 4, id from canvases where workspace_id = ${ws} and project_id = ${id}
    union all select 'task', 5, id from tasks where workspace_id = ${ws} and project_id = ${id} and parent_id is null
    union all select 'okr', 6, id from objectives where workspace_id = ${ws} and project_id = ${id}`,
  canvas: (ws, id) => sql`
    select 'project' as rel, 1 as rank, project_id as id from canvases where workspace_id = ${ws} and id = ${id} and project_id is not null
    union all select 'owner', 2, owner_id from canvases where workspace_id = ${ws} and id = ${id}
    union all select 'link', 3, target_id from canvas_links where workspace_id = ${ws} and canvas_id = ${id}
    union all select 'task', 4, id from tasks where workspace_id = ${ws} and canvas_id = ${id}
    union all select 'linked_from', 5, canvas_id from canvas_links where workspace_id = ${ws} and target_id = ${id}`,
  task: (ws, id) => sql`
    select 'project' as rel, 1 as rank, project_id as id from tasks where workspace_id = ${ws} and id = ${id} and project_id is not null
    union all select 'parent', 2, parent_id from tasks where workspace_id = ${ws} and id = ${id} and parent_id is not null
    union all select 'subtask', 3, id from tasks where workspace_id = ${ws} and parent_id = ${id}
    union all select 'canvas', 4, canvas_id from tasks where workspace_id = ${ws} and id = ${id} and canvas_id is not null
    union all select 'assignee', 5, assignee_id from tasks where workspace_id = ${ws} and id = ${id} and assignee_id is not null
    union all select 'creator', 6, creator_id from tasks where workspace_id = ${ws} and id = ${id}
    union all select 'linked_from', 7, canvas_id from canvas_links where workspace_id = ${ws} and target_id = ${id}`,
  okr: (ws, id) => sql`
    select 'owner' as rel, 1 as rank, owner_id as id from objectives where workspace_id = ${ws} and id = ${id}
    union all select 'team', 2, team_id from objectives where workspace_id = ${ws} and id = ${id} and team_id is not null
    union all select 'project', 3, project_id from objectives where workspace_id = ${ws} and id = ${id} and project_id is not null
    union all select 'linked_from', 4, canvas_id from canvas_links where workspace_id = ${ws} and target_id = ${id}`,
  comment: (ws, id) => sql`
    select 'on' as rel, 1 as rank, resource_id as id from comments where workspace_id = ${ws} and id = ${id}
    union all select 'reply_to', 2, parent_id from comments where workspace_id = ${ws} and id = ${id} and parent_id is not null
    union all select 'reply', 3, id from comments where workspace_id = ${ws} and parent_id = ${id}
    union all select 'author', 4, author_id from comments where workspace_id = ${ws} and id = ${id}`,
  person: (ws, id) => sql`
    select 'team' as rel, 1 as rank, team_id as id from team_members where workspace_id = ${ws} and person_id = ${id}
    union all select 'project', 2, project_id from project_members where workspace_id = ${ws} and person_id = ${id}`,
  team: (ws, id) => sql`
    select 'member' as rel, 1 as rank, person_id as id from team_members where workspace_id = ${ws} and team_id = ${id}
    union all select 'project', 2, project_id from project_members where workspace_id = ${ws} and team_id = ${id}`,
  key_result: (ws, id) =>
    sql`select 'okr' as rel, 1 as rank, objective_id as id from key_results where workspace_id = ${ws} and id = ${id}`,
  checkin: (ws, id) => sql`
    select 'okr' as rel, 1 as rank, objective_id as id from checkins where workspace_id = ${ws} and id = ${id}
    union all select 'author', 2, author_id from checkins where workspace_id = ${ws} and id = ${id}`,
  activity: (ws, id) => sql`
    select 'subject' as rel, 1 as rank, subject_id as id from activity where workspace_id = ${ws} and id = ${id}
    union all select 'actor', 2, actor_id from activity where workspace_id = ${ws} and id = ${id}`,
}

/** The edge rows of a resource, or null for a kind that has no neighbours. */
export function edgesOf(
  kind: IdKind | null,
  workspaceId: string,
  id: string,
): RawBuilder<unknown> | null {
  const edges = kind ? EDGES[kind] : undefined
  return edges ? edges(workspaceId, id) : null
}
