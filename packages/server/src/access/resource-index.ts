import { type RawBuilder, sql } from 'kysely'
import { allKinds, kindOfId, kindsWith } from '../catalogue/catalogue.ts'
import type { Db } from '../db/database.ts'
import { PREPARED } from '../db/prepared-statements.ts'

/*
 * The write side of the visibility rules (docs/permissions.md): compiles each resource's source
 * rows into its resource-index row (who may open it, its own searchable text). Every statement
 * derives the row from the source tables alone, so the index is a pure function of them: syncing
 * twice changes nothing, and a test can resync a whole workspace and expect no difference. Each
 * indexed kind's statement is its `index` part (in kinds/<kind>/<kind>.kind.ts):
 *
 *   project            ws_visible = visibility is 'workspace'      acl = {project}
 *   canvas, project    the project's rule (no project: ws_visible)  acl = {project}
 *   canvas, private    not ws_visible                               acl = {owner, shared people, teams, integrations}
 *   task               its project's ws_visible (no project: false) acl = {project, creator, assignee}
 *   okr                ws_visible = visibility is 'workspace'       acl = {owner} (+ owning team when private)
 *   comment            exactly its resource's row
 */

/** Which resources to (re)compile: a whole workspace, or some ids and the comments on them. */
export type IndexScope = { readonly all: true } | { readonly ids: readonly string[] }

/** How an indexed kind compiles its resource-index rows from its source rows. */
export interface IndexRows {
  /**
   * A select of `(workspace_id, id, type, project_id, title, body, ws_visible, acl, created_at,
   * updated_at)` for the workspace: every row of the kind, or (`ids` given) those whose row may
   * depend on one of `ids`. The kind's own rows are read from `source`, its table unless given:
   * a statement that inserts a row passes the table expression returning it (`indexInserted`).
   */
  rows(
    workspaceId: string,
    ids: readonly string[] | null,
    source?: RawBuilder<unknown>,
  ): RawBuilder<unknown>
  /** Its titles' words join the vocabulary that typo tolerance reads. */
  readonly titled: boolean
  /**
   * Its rows copy other rows of the index (a comment's is that of what it is on): compiled after
   * every other kind, whichever ids are recompiled.
   */
  readonly readsIndex?: boolean
}

declare module '../catalogue/kind.ts' {
  interface KindParts {
    /** How its resource-index rows are compiled (indexed kinds). */
    index: IndexRows
  }
}

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

/** `and <column> = any(ids)`, or nothing when every row is meant. */
export function onlyIds(
  column: RawBuilder<unknown>,
  ids: readonly string[] | null,
): RawBuilder<unknown> {
  return ids === null ? sql`` : sql`and ${column} = any(${sql.val([...ids])}::text[])`
}

/**
 * Recompiles the index rows in scope, in dependency order (comments copy their resource's row),
 * and adds the new words of their titles to the vocabulary typo tolerance reads (docs/api.md,
 * "Search"). Call it in the same transaction as the change to the source rows. For ids, only
 * the statements of their kinds run, then the comments' (which copy the rows of what they are
 * on). A created row is compiled by the statement that inserts it instead (`indexInserted`).
 */
export async function syncResourceIndex(
  db: Db,
  workspaceId: string,
  scope: IndexScope,
): Promise<void> {
  if ('ids' in scope && scope.ids.length === 0) return
  const ids = 'all' in scope ? null : scope.ids
  const named = ids === null ? null : new Set(ids.map((id) => kindOfId(id)?.name))
  const kinds = kindsWith('index')
  const unruled = allKinds().find((kind) => kind.indexed && !kind.index)
  // A kind's parts are added as the app is assembled: an index written without them is wrong.
  if (unruled) throw new Error(`kind ${unruled.name} is indexed but has no index rule yet`)
  for (const kind of kinds.filter((kind) => !kind.index.readsIndex)) {
    if (named !== null && !named.has(kind.name)) continue
    await upsertRows(db, workspaceId, kind.index, ids)
  }
  for (const kind of kinds.filter((kind) => kind.index.readsIndex))
    await upsertRows(db, workspaceId, kind.index, ids)
}

/**
 * Upserts the index rows of a kind and, in the same statement for a titled kind, adds the words
 * of the titles it wrote that the vocabulary lacks. Words are never removed: one no visible
 * title has any more matches nothing.
 */
async function upsertRows(
  db: Db,
  workspaceId: string,
  index: IndexRows,
  ids: readonly string[] | null,
): Promise<void> {
  const rows = index.rows(workspaceId, ids)
  if (!index.titled) {
    await sql`${COLUMNS} ${rows} ${UPSERT}`.execute(db)
    return
  }
  await sql`with written as (${COLUMNS} ${rows} ${UPSERT} returning title)
    ${newTitleWords(workspaceId, 'written')} ${PREPARED}`.execute(db)
}

/** The name of `indexInserted`'s expression that returns the index rows it wrote. */
export const INDEX_WRITTEN = 'index_written'

/**
 * Common table expressions for a statement that inserts a resource's row (`inserted` names the
 * expression returning it): its index row, compiled from that row by the kind's own rule, and
 * its title's new words. The same rows `syncResourceIndex` writes for a created id, so the index
 * stays a pure function of the source rows; a created row has no comments to recompile yet.
 */
export function indexInserted(
  index: IndexRows,
  workspaceId: string,
  inserted: string,
): RawBuilder<unknown> {
  const rows = index.rows(workspaceId, null, sql.table(inserted))
  const upsert = sql`${sql.table(INDEX_WRITTEN)} as (${COLUMNS} ${rows} ${UPSERT} returning title)`
  if (!index.titled) return upsert
  return sql`${upsert}, title_words_written as (${newTitleWords(workspaceId, INDEX_WRITTEN)})`
}

// Adds the words of the titles `written` returns that the vocabulary lacks (four letters or more).
// Each word is looked up by the index: `offset 0` keeps the test a lookup per word, where the
// planner would otherwise join the few words against the workspace's whole vocabulary.
function newTitleWords(workspaceId: string, written: string): RawBuilder<unknown> {
  return sql`insert into title_words (workspace_id, word)
    select distinct ${workspaceId}, w.word
    from ${sql.table(written)} r, unnest(tsvector_to_array(to_tsvector('simple', r.title))) as w(word)
    where length(w.word) >= 4
      and not exists (
        select from title_words t where t.workspace_id = ${workspaceId} and t.word = w.word offset 0)`
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
