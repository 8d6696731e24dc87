import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../db/database.ts'
import { PREPARED } from '../db/prepared-statements.ts'
import { type IdKind, idKind } from '../lib/ids.ts'

/*
 * The write side of the visibility rules (docs/permissions.md): compiles each resource's source
 * rows into its resource-index row (who may open it, its own searchable text). Every statement
 * derives the row from the source tables alone, so the index is a pure function of them: syncing
 * twice changes nothing, and a test can resync a whole workspace and expect no difference.
 *
 *   project            ws_visible = visibility is 'workspace'      acl = {project}
 *   canvas, project    the project's rule (no project: ws_visible)  acl = {project}
 *   canvas, private    not ws_visible                               acl = {owner, shared people, teams, integrations}
 *   task               its project's ws_visible (no project: false) acl = {project, creator, assignee}
 *   objective          ws_visible = visibility is 'workspace'       acl = {owner} (+ owning team when private)
 *   comment            exactly its resource's row
 */

/**
 * Which resources to (re)compile: a whole workspace, or some ids and the comments on them.
 * `created`: the ids were created in this transaction, so no comment is on them yet.
 */
export type IndexScope =
  | { readonly all: true }
  | { readonly ids: readonly string[]; readonly created?: boolean }

const UPSERT = sql.raw(`
  on conflict (workspace_id, id) do update set
    project_id = excluded.project_id, title = excluded.title, body = excluded.body,
    ws_visible = excluded.ws_visible, acl = excluded.acl, updated_at = excluded.updated_at
  where (resource_index.project_id, resource_index.title, resource_index.body, resource_index.ws_visible,
         resource_index.acl, resource_index.updated_at)
    is distinct from (excluded.project_id, excluded.title, excluded.body, excluded.ws_visible,
         excluded.acl, excluded.updated_at)`)

const COLUMNS = sql.raw(
  'insert into resource_index (workspace_id, id, type, project_id, title, body, ws_visible, acl, created_at, updated_at)',
)

function only(column: string, scope: IndexScope): RawBuilder<unknown> {
  return 'all' in scope
    ? sql``
    : sql`and ${sql.ref(column)} = any(${sql.val([...scope.ids])}::text[])`
}

/**
 * Recompiles the index rows in scope, in dependency order (comments copy their resource's row),
 * and adds the new words of their titles to the vocabulary typo tolerance reads (docs/api.md,
 * "Search"). Call it in the same transaction as the change to the source rows. For ids, only
 * the statements of their kinds run: a task's write compiles one row in one statement.
 */
export async function syncResourceIndex(
  db: Db,
  workspaceId: string,
  scope: IndexScope,
): Promise<void> {
  if ('ids' in scope && scope.ids.length === 0) return
  const kinds = 'all' in scope ? null : new Set(scope.ids.map(idKind))
  const needs = (kind: IdKind) => kinds === null || kinds.has(kind)
  if (needs('project')) {
    await upsertWithTitleWords(
      db,
      workspaceId,
      sql`select p.workspace_id, p.id, 'project', p.id, p.name, p.description,
           p.visibility = 'workspace', array[p.id], p.created_at, p.updated_at
    from projects p where p.workspace_id = ${workspaceId} ${only('p.id', scope)}`,
    )
  }
  if (needs('canvas')) {
    await upsertWithTitleWords(
      db,
      workspaceId,
      sql`select c.workspace_id, c.id, 'canvas', c.project_id, c.title, c.summary,
           case when c.visibility = 'private' then false
                when c.project_id is null then true
                else p.visibility = 'workspace' end,
           case when c.visibility = 'private' then array[c.owner_id] || array(
                  select s.principal_id from canvas_shares s
                  where s.workspace_id = c.workspace_id and s.canvas_id = c.id order by 1)
                when c.project_id is null then '{}'::text[]
                else array[c.project_id] end,
           c.created_at, c.updated_at
    from canvases c
    left join projects p on p.workspace_id = c.workspace_id and p.id = c.project_id
    where c.workspace_id = ${workspaceId} ${only('c.id', scope)}`,
    )
  }
  if (needs('task')) {
    await upsertWithTitleWords(
      db,
      workspaceId,
      sql`select t.workspace_id, t.id, 'task', t.project_id, t.title, t.description,
           coalesce(p.visibility = 'workspace', false),
           array(select distinct x from unnest(array[t.project_id, t.creator_id, t.assignee_id]) x
                 where x is not null order by x),
           t.created_at, t.updated_at
    from tasks t
    left join projects p on p.workspace_id = t.workspace_id and p.id = t.project_id
    where t.workspace_id = ${workspaceId} ${only('t.id', scope)}`,
    )
  }
  if (needs('okr')) {
    await upsertWithTitleWords(
      db,
      workspaceId,
      sql`select o.workspace_id, o.id, 'okr', o.project_id, o.title,
           coalesce((select string_agg(k.title, E'\n' order by k.position) from key_results k
                     where k.workspace_id = o.workspace_id and k.objective_id = o.id), ''),
           o.visibility = 'workspace',
           case when o.visibility = 'private' then array_remove(array[o.owner_id, o.team_id], null)
                else array[o.owner_id] end,
           o.created_at, o.updated_at
    from objectives o where o.workspace_id = ${workspaceId} ${only('o.id', scope)}`,
    )
  }
  // Comments copy the rows just written, so they need a statement of their own after them.
  if ('ids' in scope && scope.created && !needs('comment')) return
  const comments =
    'all' in scope
      ? sql``
      : sql`and (c.id = any(${sql.val([...scope.ids])}::text[]) or c.resource_id = any(${sql.val([...scope.ids])}::text[]))`
  await sql`${COLUMNS}
    select c.workspace_id, c.id, 'comment', t.project_id, '', c.body, t.ws_visible, t.acl,
           c.created_at, c.updated_at
    from comments c
    join resource_index t on t.workspace_id = c.workspace_id and t.id = c.resource_id
    where c.workspace_id = ${workspaceId} ${comments}
    ${UPSERT}`.execute(db)
}

/**
 * Upserts the index rows `rows` selects and, in the same statement, adds the words of the titles
 * it wrote that the vocabulary lacks. Words are never removed: one no visible title has any more
 * matches nothing. Comments have no title, so they have no words to add.
 */
async function upsertWithTitleWords(db: Db, workspaceId: string, rows: RawBuilder<unknown>) {
  await sql`with written as (${COLUMNS} ${rows} ${UPSERT} returning title)
    insert into title_words (workspace_id, word)
    select distinct ${workspaceId}, w.word
    from written r, unnest(tsvector_to_array(to_tsvector('simple', r.title))) as w(word)
    where length(w.word) >= 4
      and not exists (select from title_words t where t.workspace_id = ${workspaceId} and t.word = w.word)
    ${PREPARED}`.execute(db)
}

/** Recompiles a project, everything in it, and the comments on all of those. */
export async function syncProjectTree(
  db: Db,
  workspaceId: string,
  projectId: string,
): Promise<void> {
  const rows = await sql<{ id: string }>`
    select id from canvases where workspace_id = ${workspaceId} and project_id = ${projectId}
    union all select id from tasks where workspace_id = ${workspaceId} and project_id = ${projectId}`.execute(
    db,
  )
  await syncResourceIndex(db, workspaceId, { ids: [projectId, ...rows.rows.map((row) => row.id)] })
}

/**
 * Marks that who-belongs-to-what changed in a workspace (roles, teams, project members), so every
 * instance re-resolves principal sets on the very next request.
 */
export async function bumpAclEpoch(db: Db, workspaceId: string): Promise<void> {
  await db
    .updateTable('workspaces')
    .set((eb) => ({ acl_epoch: eb('acl_epoch', '+', sql<string>`1`) }))
    .where('id', '=', workspaceId)
    .execute()
}
