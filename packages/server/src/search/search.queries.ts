import { sql } from 'kysely'
import type { ReadableType } from '../access/scopes.ts'
import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import type { CursorPosition } from '../lib/cursor.ts'
import type { SearchType } from './search.schemas.ts'
import { tsquery } from './search-query.ts'

/**
 * How many of the most recently updated matches are ranked. A term found in more items than this
 * ranks only the newest ones: the cost stays bounded however common the term, and the window is
 * taken among visible matches only, so hidden items never change what a caller sees.
 */
const SEARCH_WINDOW = 1000

/** One ranked, visible hit with what presenting it needs. */
export interface SearchRow {
  id: string
  type: SearchType
  title: string
  body: string
  rank: number
  updated_at: Date
  snippet: string
  title_matched: boolean
  canvas_summary: string | null
  task_due: string | null
  /** Visible ancestors, outermost first. */
  path: string[]
}

/** What to search for. */
export interface SearchInput {
  text: string
  types: readonly SearchType[]
  /** Types the token may read: a hit's title and path name neighbours of these types only. */
  readableTypes: readonly ReadableType[]
  after: CursorPosition | null
  limit: number
  window?: number
}

/**
 * Searches each item's own text among what the principal may open, in one statement: visibility,
 * the candidate window, ranking, keyset and limit together; snippets and breadcrumbs are computed
 * for the returned page only. Ranking is ts_rank: it reads only the item's own text (no corpus
 * statistics a hidden item could shift), titles weigh more than bodies, and recent items win ties.
 * Returns `limit + 1` rows.
 */
export async function searchIndex(
  db: Db,
  visibility: Visibility,
  input: SearchInput,
): Promise<SearchRow[]> {
  const ws = visibility.principal.workspaceId
  const window = input.window ?? SEARCH_WINDOW
  const indexed = input.types.filter((type) => type !== 'activity')
  const withActivity = input.types.includes('activity')
  const keyset = input.after
    ? sql`where (rank, updated_at, id) < (${input.after[0]}::real, ${input.after[1]}::timestamptz, ${input.after[2]}::text)`
    : sql``
  // Inline, not a CTE: a constant the planner can read, so it estimates how common the words are
  // and walks the newest rows for a very common term but the GIN index for a rare one.
  const q = tsquery(input.text)
  const readable = sql`${sql.val([...input.readableTypes])}::text[]`
  const result = await sql<SearchRow>`
    with matches as (
      select r.id, r.type, r.title, r.body, r.project_id, r.updated_at, r.tsv,
             null::text as subject_title, null::text as subject_crumb
      from resource_index r
      where r.workspace_id = ${ws} and r.type = any(${sql.val(indexed)}::text[])
        and r.tsv @@ ${q} and ${visibility.rowInBulk('r')}
      order by r.updated_at desc, r.id desc
      limit ${window}
    ),
    acts as (
      select a.id, 'activity'::text as type, a.verb as title, a.search_text as body, a.project_id,
             a.created_at as updated_at, a.tsv,
             case when s.type <> all(${readable}) then null
                  when s.type = 'comment' then left(s.body, 120) else s.title end as subject_title,
             case when s.type <> all(${readable}) then null
                  when s.type = 'comment' then left(s.body, 80) else s.title end as subject_crumb
      from activity a
      join resource_index s on s.workspace_id = a.workspace_id and s.id = a.subject_id
      where ${withActivity} and a.workspace_id = ${ws} and a.tsv @@ ${q}
        and ${visibility.activity('a', 's', 'bulk')}
      order by a.created_at desc, a.id desc
      limit ${window}
    ),
    ranked as (
      select id, type, title, body, project_id, updated_at, subject_title, subject_crumb,
             ts_rank(tsv, ${q})::real as rank from matches
      union all
      select id, type, title, body, project_id, updated_at, subject_title, subject_crumb,
             ts_rank(tsv, ${q})::real from acts
    ),
    page as (
      select * from ranked ${keyset}
      order by rank desc, updated_at desc, id desc
      limit ${input.limit + 1}
    ),
    -- The page's neighbours as scalar subqueries, not joins: each is planned on its own, which
    -- keeps planning (once several ms of join-order search) out of the latency. A neighbour is
    -- named only when the caller may open it and its type is one the token reads.
    context as (
      select page.*,
        (select coalesce(nullif(x.title, ''), left(x.body, 80))
           from comments cm join resource_index x on x.workspace_id = cm.workspace_id and x.id = cm.resource_id
           where page.type = 'comment' and cm.workspace_id = ${ws} and cm.id = page.id
             and x.type = any(${readable})) as target_title,
        (select x.title
           from comments cm join resource_index x on x.workspace_id = cm.workspace_id and x.id = cm.resource_id
           where page.type = 'comment' and cm.workspace_id = ${ws} and cm.id = page.id
             and x.type = any(${readable})) as target_crumb,
        (select x.title from tasks t join resource_index x on x.workspace_id = t.workspace_id and x.id = t.parent_id
           where page.type = 'task' and t.workspace_id = ${ws} and t.id = page.id and ${visibility.row('x')}
             and 'task' = any(${readable})) as parent_title,
        (select x.title from resource_index x
           where page.type <> 'project' and x.workspace_id = ${ws} and x.id = page.project_id and ${visibility.row('x')}
             and 'project' = any(${readable})) as project_title,
        (select c.summary from canvases c where page.type = 'canvas' and c.workspace_id = ${ws} and c.id = page.id) as canvas_summary,
        (select t.due from tasks t where page.type = 'task' and t.workspace_id = ${ws} and t.id = page.id) as task_due
      from page
    )
    select id, type, rank, updated_at,
      case when type = 'activity' then replace(replace(title, '.', ' '), '_', ' ') || coalesce(': ' || subject_title, '')
           when type = 'comment' then coalesce('Comment on ' || target_title, 'Comment')
           else title end as title,
      body,
      ts_headline('english', coalesce(nullif(body, ''), title), ${q},
                  'MaxFragments=1, MaxWords=35, MinWords=12, StartSel="", StopSel=""') as snippet,
      type <> 'activity' and (to_tsvector('english', title) || to_tsvector('simple', title)) @@ ${q} as title_matched,
      canvas_summary,
      task_due,
      array_remove(array[project_title, coalesce(parent_title, target_crumb, subject_crumb)], null) as path
    from context
    order by rank desc, updated_at desc, id desc`.execute(db)
  return result.rows
}
