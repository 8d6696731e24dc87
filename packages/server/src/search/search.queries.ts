import { type RawBuilder, sql } from 'kysely'
import type { ReadableType } from '../access/scopes.ts'
import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import type { CursorPosition } from '../lib/cursor.ts'
import type { ParsedQuestion, QueryTerm } from './question-parser.ts'
import type { SearchType } from './search.schemas.ts'
import { activityFilter, indexFilter, type ResolvedFilters } from './search-filters.ts'
import { combined, termQuery, textQuery } from './search-query.ts'

/**
 * How many of the most recently updated matches each candidate set holds (those with every word,
 * those with any word, near misses of titles, and each word's own matches). Words
 * found in more items than this rank only the newest ones: the cost stays bounded however common
 * the words, and each window is taken among visible matches only, so hidden items never change
 * what a caller sees.
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
  question: Pick<ParsedQuestion, 'terms' | 'phrases' | 'excluded' | 'exact'>
  filters: ResolvedFilters
  types: readonly SearchType[]
  /** Types the token may read: a hit's title and path name neighbours of these types only. */
  readableTypes: readonly ReadableType[]
  after: CursorPosition | null
  limit: number
  window?: number
}

/**
 * Searches each item's own text among what the principal may open, in one statement: visibility,
 * filters, the candidate windows, ranking, keyset and limit together; snippets and breadcrumbs are
 * computed for the returned page only. The rank reads only the item's own text and the query (no
 * corpus statistics a hidden item could shift): how many of the query's terms the item covers,
 * then how many its title covers, a title that is the query, and ts_rank; recent items win ties.
 * Returns `limit + 1` rows; none when the query has neither terms, phrases nor filters.
 */
export async function searchIndex(
  db: Db,
  visibility: Visibility,
  input: SearchInput,
): Promise<SearchRow[]> {
  const ws = visibility.principal.workspaceId
  const window = input.window ?? SEARCH_WINDOW
  // As large as the others: with a smaller limit the planner walked the newest rows for a word in
  // 0.5 % of items rather than reading its GIN entries (a question at 1,000,000 items: 393 ms).
  const termWindow = window
  const { phrases, excluded, exact } = input.question
  const indexed = input.types.filter((type) => type !== 'activity')
  const withActivity = input.types.includes('activity')
  const filtered = Object.keys(input.filters).length > 0
  if (input.question.terms.length === 0 && phrases.length === 0 && !filtered) return []
  const keyset = input.after
    ? sql`where (rank, updated_at, id) < (${input.after[0]}::real, ${input.after[1]}::timestamptz, ${input.after[2]}::text)`
    : sql``
  // Inline, not CTEs: constants the planner can read, so it estimates how common the words are
  // and walks the newest rows for a very common term but the GIN index for a rare one.
  const required = (alias: string) =>
    sql.join(
      [
        sql`true`,
        ...phrases.map((p) => sql`${sql.ref(`${alias}.tsv`)} @@ ${textQuery(`"${p}"`)}`),
        ...excluded.map((e) => sql`not (${sql.ref(`${alias}.tsv`)} @@ ${textQuery(e)})`),
      ],
      sql` and `,
    )
  const readable = sql`${sql.val([...input.readableTypes])}::text[]`
  const indexBase = sql`r.workspace_id = ${ws} and r.type = any(${sql.val(indexed)}::text[])
        and ${required('r')} and ${indexFilter(input.filters, ws, 'r')} and ${visibility.rowInBulk('r')}`
  const terms = await nearMissesOfUnmatched(
    db,
    input.question.terms,
    indexed.length > 0 ? indexBase : null,
  )
  const any = combined(terms, 'or')
  const all = terms.length > 1 ? combined(terms, 'and') : null
  const fuzzy = terms.flatMap((term) => (term.fuzzy ? [term.fuzzy] : []))
  // Each window carries what ranking reads, so its rows are not fetched a second time by id.
  const newestIndex = (
    condition: ReturnType<typeof sql>,
    size = window,
  ) => sql`(select r.id, r.type, r.title,
          r.body, r.project_id, r.updated_at, r.tsv,
          null::text as subject_title, null::text as subject_crumb
        from resource_index r
        where ${indexBase} and ${condition}
        order by r.updated_at desc, r.id desc limit ${size})`
  const titleNear = (alias: string) =>
    fuzzy.length === 0
      ? sql`false`
      : sql`(${sql.join(
          fuzzy.map((word) => sql`${word} <% ${sql.ref(`${alias}.title`)}`),
          sql` or `,
        )})`
  // With several terms, each term's own newest matches too: an item covering two rare words is
  // then a candidate however many newer items have a common one.
  const perTerm = (newest: (c: ReturnType<typeof sql>) => ReturnType<typeof sql>, tsv: string) =>
    terms.length > 1 ? terms.map((term) => newest(sql`${sql.ref(tsv)} @@ ${termQuery(term)}`)) : []
  const indexSets = [
    ...(any ? [newestIndex(sql`r.tsv @@ ${any}`)] : [newestIndex(sql`true`)]),
    ...(all ? [newestIndex(sql`r.tsv @@ ${all}`)] : []),
    ...perTerm((c) => newestIndex(c, termWindow), 'r.tsv'),
    ...(any && fuzzy.length > 0
      ? [newestIndex(sql`${titleNear('r')} and not (r.tsv @@ ${any})`)]
      : []),
  ]
  const actBase = sql`${withActivity} and a.workspace_id = ${ws} and ${required('a')}
        and ${activityFilter(input.filters, 'a')} and ${visibility.activity('a', 's', 'bulk')}`
  const newestActs = (condition: ReturnType<typeof sql>, size = window) => sql`(select a.id,
          'activity'::text as type, a.verb as title, a.search_text as body, a.project_id,
          a.created_at as updated_at, a.tsv,
          case when s.type <> all(${readable}) then null
               when s.type = 'comment' then left(s.body, 120) else s.title end as subject_title,
          case when s.type <> all(${readable}) then null
               when s.type = 'comment' then left(s.body, 80) else s.title end as subject_crumb
        from activity a
        join resource_index s on s.workspace_id = a.workspace_id and s.id = a.subject_id
        where ${actBase} and ${condition}
        order by a.created_at desc, a.id desc limit ${size})`
  // Whole words only: a prefix has no statistics, and a window guessing it common walked the
  // whole feed (110 ms at 100,000 items) for a word in no entry. A half-typed word finds items.
  const whole = terms.map((term) => ({ ...term, prefix: null }))
  const actAny = combined(whole, 'or')
  const actAll = whole.length > 1 ? combined(whole, 'and') : null
  const actSets = [
    ...(actAny ? [newestActs(sql`a.tsv @@ ${actAny}`)] : [newestActs(sql`true`)]),
    // No window per word: an entry's text is a verb and changed values, rarely a question's
    // words, and each window repeats the visibility join (about 6 ms each for a guest).
    ...(actAll ? [newestActs(sql`a.tsv @@ ${actAll}`)] : []),
  ]
  // Per term: does the item's text cover it, does its title? A near miss of a title covers both.
  const covers = (tsv: ReturnType<typeof sql>) =>
    terms.length === 0
      ? sql`0`
      : sql.join(
          terms.map(
            (term) =>
              sql`(${tsv} @@ ${termQuery(term)}${term.fuzzy ? sql` or (type <> 'activity' and ${term.fuzzy} <% title)` : sql``})::int`,
          ),
          sql` + `,
        )
  const n = Math.max(terms.length, 1)
  const rank = any
    ? sql`(${covers(sql`tsv`)})
          + 0.45 * (${covers(sql`ttsv`)}) / ${n}::real
          + 0.25 * (type <> 'activity' and lower(trim(regexp_replace(title, '[^[:alnum:]]+', ' ', 'g'))) = ${exact})::int
          + 0.25 * ts_rank(tsv, ${any}, 32)`
    : sql`0`
  const headline = any ?? sql`''::tsquery`
  const result = await sql<SearchRow>`
    with matches as (
      select distinct on (id) * from (${sql.join(indexSets, sql` union all `)}) w
    ),
    acts as (
      select distinct on (id) * from (${sql.join(actSets, sql` union all `)}) w
    ),
    candidates as (
      select *, ts_filter(tsv, '{a}') as ttsv from matches
      union all
      select *, ''::tsvector from acts
    ),
    ranked as (
      select id, type, title, body, project_id, updated_at, subject_title, subject_crumb,
             (${rank})::real as rank
      from candidates
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
      ts_headline('english', coalesce(nullif(body, ''), title), ${headline},
                  'MaxFragments=1, MaxWords=35, MinWords=12, StartSel="", StopSel=""') as snippet,
      type <> 'activity' and ((to_tsvector('english', title) || to_tsvector('simple', title)) @@ ${headline}
        or ${titleNear('context')}) as title_matched,
      canvas_summary,
      task_due,
      array_remove(array[project_title, coalesce(parent_title, target_crumb, subject_crumb)], null) as path
    from context
    order by rank desc, updated_at desc, id desc`.execute(db)
  return result.rows
}

/**
 * The terms with near misses (typo tolerance, the last word as a prefix) kept only for words that
 * no candidate's text matches as they are (`base` is the candidates' condition: visible,
 * filtered): a typo or a half-typed word rarely matches anything, and a word that does is
 * neither. It also keeps statements fast: the planner has no statistics for a prefix and guesses
 * it common, so a window with one walked every row newest first (70 ms at 100,000 items for a
 * word in no activity entry), and testing titles for near misses of a common word reads
 * thousands of rows. Decided among visible items only, like the windows, so hidden items cannot
 * change it.
 */
async function nearMissesOfUnmatched(
  db: Db,
  terms: readonly QueryTerm[],
  base: RawBuilder<unknown> | null,
): Promise<QueryTerm[]> {
  const near = terms.filter((term) => term.fuzzy || term.prefix)
  if (near.length === 0) return [...terms]
  if (base === null) return terms.map((term) => ({ ...term, fuzzy: null, prefix: null }))
  // Without the prefix, so that the words' own statistics pick the GIN index (a guessed-common
  // prefix made this a scan of every row: 149 ms at 100,000 items).
  const found = await sql<{ found: boolean[] }>`select array[${sql.join(
    near.map(
      (term) =>
        sql`exists (select from resource_index r where ${base}
          and r.tsv @@ ${termQuery({ ...term, prefix: null })})`,
    ),
  )}] as found`.execute(db)
  const matched = new Set(near.filter((_, i) => found.rows[0]?.found[i]))
  return terms.map((term) => (matched.has(term) ? { ...term, fuzzy: null, prefix: null } : term))
}
