import { sql } from 'kysely'
import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import { activityVisible } from '../graph/activity/activity.queries.ts'
import type { CursorPosition } from '../lib/cursor.ts'
import type { SearchType } from './search.schemas.ts'
import { tsquery } from './search-query.ts'

/**
 * How many of the most recently updated matches are ranked. A term found in more items than this
 * ranks only the newest ones: the cost stays bounded however common the term, and the window is
 * taken among visible matches only, so hidden items never change what a caller sees.
 */
export const SEARCH_WINDOW = 1000

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
  const result = await sql<SearchRow>`
    with q as (select ${tsquery(input.text)} as q),
    matches as (
      select r.id, r.type, r.title, r.body, r.project_id, r.updated_at, r.tsv, null::text as subject_id
      from resource_index r
      where r.workspace_id = ${ws} and r.type = any(${sql.val(indexed)}::text[])
        and r.tsv @@ (select q from q) and ${visibility.row('r')}
      order by r.updated_at desc, r.id desc
      limit ${window}
    ),
    acts as (
      select a.id, 'activity'::text as type, a.verb as title, a.search_text as body, a.project_id,
             a.created_at as updated_at, a.tsv, a.subject_id
      from activity a
      where ${withActivity} and a.workspace_id = ${ws} and a.tsv @@ (select q from q) and ${activityVisible(visibility, 'a')}
      order by a.created_at desc, a.id desc
      limit ${window}
    ),
    ranked as (
      select id, type, title, body, project_id, updated_at, subject_id, ts_rank(tsv, (select q from q))::real as rank from matches
      union all
      select id, type, title, body, project_id, updated_at, subject_id, ts_rank(tsv, (select q from q))::real from acts
    ),
    page as (
      select * from ranked ${keyset}
      order by rank desc, updated_at desc, id desc
      limit ${input.limit + 1}
    )
    select page.id, page.type, page.rank, page.updated_at,
      case when page.type = 'activity' then replace(replace(page.title, '.', ' '), '_', ' ') || ': ' || coalesce(case when s.type = 'comment' then left(s.body, 120) else s.title end, '')
           when page.type = 'comment' then 'Comment on ' || coalesce(nullif(target.title, ''), left(target.body, 80))
           else page.title end as title,
      page.body,
      ts_headline('english', coalesce(nullif(page.body, ''), page.title), (select q from q),
                  'MaxFragments=1, MaxWords=35, MinWords=12, StartSel="", StopSel=""') as snippet,
      page.type <> 'activity' and (to_tsvector('english', page.title) || to_tsvector('simple', page.title)) @@ (select q from q) as title_matched,
      c.summary as canvas_summary,
      t.due as task_due,
      array_remove(array[
        case when page.type <> 'project' then p.title end,
        coalesce(parent.title, target.title, case when s.type = 'comment' then left(s.body, 80) else s.title end)
      ], null) as path
    from page
    left join canvases c on page.type = 'canvas' and c.workspace_id = ${ws} and c.id = page.id
    left join tasks t on page.type = 'task' and t.workspace_id = ${ws} and t.id = page.id
    left join comments cm on page.type = 'comment' and cm.workspace_id = ${ws} and cm.id = page.id
    left join resource_index target on target.workspace_id = ${ws} and target.id = cm.resource_id
    left join resource_index s on s.workspace_id = ${ws} and s.id = page.subject_id
    left join resource_index parent on parent.workspace_id = ${ws} and parent.id = t.parent_id and ${visibility.row('parent')}
    left join resource_index p on p.workspace_id = ${ws} and p.id = page.project_id and ${visibility.row('p')}
    order by page.rank desc, page.updated_at desc, page.id desc`.execute(db)
  return result.rows
}
