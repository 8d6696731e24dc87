import { type RawBuilder, sql } from 'kysely'

import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import { latestConfidence } from '../graph/okrs/okrs.queries.ts'
import type { CursorPosition } from '../lib/cursor.ts'
import type { ParsedQuestion, QueryTerm } from './question-parser.ts'
import type { SearchKind } from './search.schemas.ts'
import { activityFilter, indexFilter, type ResolvedFilters } from './search-filters.ts'
import { combined, termQuery, textQuery, titleOnly } from './search-query.ts'
import { editDistance, editsAllowed } from './typo-distance.ts'

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
  type: SearchKind
  title: string
  body: string
  rank: number
  updated_at: Date
  snippet: string
  title_matched: boolean
  canvas_summary: string | null
  task_due: string | null
  task_status: string | null
  /** The assignee's name, when the caller may see them and the token reads people. */
  task_assignee: string | null
  project_status: string | null
  /** An objective's progress, session and latest confidence, from which its health follows. */
  okr_facts: { progress: number; session: string; confidence: number | null } | null
  /** Visible ancestors, outermost first. */
  path: string[]
}

/** What to search for. */
export interface SearchInput {
  question: Pick<ParsedQuestion, 'terms' | 'phrases' | 'excluded' | 'exact'>
  filters: ResolvedFilters
  types: readonly SearchKind[]
  /** Types the token may read: a hit's title and path name neighbours of these types only. */
  readableKinds: readonly string[]
  after: CursorPosition | null
  limit: number
  window?: number
  /**
   * The question's words named the kinds to list ("docs that aren't in any project"): as a filter,
   * the kind then defines the set and the other words only rank it.
   */
  listed?: boolean
  /**
   * Today's UTC day (`YYYY-MM-DD`). With it, among items the words cover equally, work that needs
   * attention (a blocked task, an overdue one) ranks first and finished work last.
   */
  today?: string
}

/**
 * Searches each item's own text among what the principal may open, in one statement: visibility,
 * filters, the candidate windows, ranking, keyset and limit together; snippets and breadcrumbs are
 * computed for the returned page only. The rank reads only the item's own text, that of its
 * project when the caller may open it, the item's state and the query (no corpus statistics a
 * hidden item could shift): how many of the query's terms the item or its project covers, then
 * how many its title covers, a title that is the query, ts_rank, and whether it needs attention;
 * recent items win ties (docs/api.md, "Ranking").
 * Returns `limit + 1` rows; none when the query has neither terms, phrases nor filters.
 */
export async function searchIndex(
  db: Db,
  visibility: Visibility,
  input: SearchInput,
): Promise<SearchRow[]> {
  const ws = visibility.principal.workspaceId
  const window = input.window ?? SEARCH_WINDOW
  // As large as the others: with a smaller limit the planner walked the newest rows for a word of
  // medium frequency rather than reading its GIN entries (bench/HISTORY.md, "Search that reads
  // questions").
  const termWindow = window
  const { phrases, excluded, exact } = input.question
  const indexed = input.types.filter((type) => type !== 'activity')
  const withActivity = input.types.includes('activity')
  const filtered = Object.keys(input.filters).length > 0 || input.listed === true
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
  const readable = sql`${sql.val([...input.readableKinds])}::text[]`
  const indexBase = sql`r.workspace_id = ${ws} and r.type = any(${sql.val(indexed)}::text[])
        and ${required('r')} and ${indexFilter(input.filters, ws, 'r')} and ${visibility.rowInBulk('r')}`
  const terms = await termsAmongVisible(
    db,
    ws,
    input.question.terms,
    indexed.length > 0 ? indexBase : null,
  )
  const any = combined(terms, 'or')
  const all = terms.length > 1 ? combined(terms, 'and') : null
  const nearAny = nearQuery(terms.flatMap((term) => term.near))
  // A window holds only its rows' addresses (ctid, fixed within the statement's snapshot): sorting
  // and deduplicating them is cheap, and each candidate is then read once by address, without an
  // index lookup. Windows that carried whole rows sorted their text vectors too, a large share of
  // a question's time in a large workspace (bench/HISTORY.md, "1,000,000 items").
  const newestIndex = (
    condition: ReturnType<typeof sql>,
    size = window,
  ) => sql`(select r.ctid as row_ctid
        from resource_index r
        where ${indexBase} and ${condition}
        order by r.updated_at desc, r.id desc limit ${size})`
  // With several terms, each term's own newest matches too: an item covering two rare words is
  // then a candidate however many newer items have a common one.
  const perTerm = (newest: (c: ReturnType<typeof sql>) => ReturnType<typeof sql>, tsv: string) =>
    terms.length > 1 ? terms.map((term) => newest(sql`${sql.ref(tsv)} @@ ${termQuery(term)}`)) : []
  // With several terms the any-word window is left out: each of its items is among the newest of
  // a word it has, so the per-word windows hold it already, and it would only cost time.
  // Filters define the set and words only rank it: with a filter understood, the newest items
  // it admits are candidates whether or not they have a word ("stuff finished in October").
  const indexSets = [
    ...(any ? [newestIndex(sql`r.project_id in (select id from linked)`)] : []),
    ...(terms.length > 1 ? [] : [newestIndex(any ? sql`r.tsv @@ ${any}` : sql`true`)]),
    ...(filtered && any ? [newestIndex(sql`true`)] : []),
    ...(all ? [newestIndex(sql`r.tsv @@ ${all}`)] : []),
    ...perTerm((c) => newestIndex(c, termWindow), 'r.tsv'),
    ...(any && nearAny ? [newestIndex(sql`r.tsv @@ ${nearAny} and not (r.tsv @@ ${any})`)] : []),
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
  // whole feed for a word in no entry. A half-typed word finds items.
  const whole = terms.map((term) => ({ ...term, prefix: null }))
  const actAny = combined(whole, 'or')
  const actAll = whole.length > 1 ? combined(whole, 'and') : null
  const actSets = [
    ...(actAny ? [newestActs(sql`a.tsv @@ ${actAny}`)] : [newestActs(sql`true`)]),
    ...(filtered && actAny ? [newestActs(sql`true`)] : []),
    // No window per word: an entry's text is a verb and changed values, rarely a question's
    // words, and each window would repeat the visibility join.
    ...(actAll ? [newestActs(sql`a.tsv @@ ${actAll}`)] : []),
  ]
  // People and teams by their stored search text (a name weighs as a title; a person's role, a
  // team's "team" as text), read through its GIN index, only those the caller may see. Other
  // filters are of content (a task's status, a project), so a question they filter finds no
  // person or team; a team's filter finds all its members, the words only ranking them.
  const { teamId, ...contentFilters } = input.filters
  const directory =
    (any || teamId) && Object.keys(contentFilters).length === 0
      ? sql`union all
      select * from (
        select p.id, 'person'::text as type, p.name as title, p.role as body,
          null::text as project_id, p.updated_at, p.tsv,
          null::text as subject_title, null::text as subject_crumb
        from people p
        where ${input.types.includes('person')} and p.workspace_id = ${ws}
          and ${any && !teamId ? sql`p.tsv @@ ${any}` : sql`true`} and ${visibility.person('p')}
          and ${
            teamId
              ? sql`p.id in (select m.person_id from team_members m
                  where m.workspace_id = ${ws} and m.team_id = ${teamId})`
              : sql`true`
          }
        union all
        select t.id, 'team'::text, t.name, 'Team', null::text, t.updated_at, t.tsv,
          null::text, null::text
        from teams t
        where ${input.types.includes('team')} and t.workspace_id = ${ws}
          and ${any ? sql`t.tsv @@ ${any}` : sql`false`} and ${visibility.team('t')}
      ) d
      where ${required('d')}`
      : sql``
  // Per term: does the item's text cover it, does its title (its weight-A words; never an
  // activity entry's)? A near miss of a title covers both.
  const covers = (where: 'text' | 'title') =>
    terms.length === 0
      ? sql`0`
      : sql.join(
          terms.map((term, i) =>
            where === 'text'
              ? sql`greatest((tsv @@ ${termQuery(term)}${nearOf(term)})::int, coalesce(linked_covers[${i + 1}], 0))`
              : sql`(type <> 'activity' and (tsv @@ ${titleOnly(termQuery(term))}${nearOf(term)}))::int`,
          ),
          sql` + `,
        )
  const n = Math.max(terms.length, 1)
  const rank = any
    ? sql`(${covers('text')})
          + 0.45 * (${covers('title')}) / ${n}::real
          + 0.25 * (${titleIs(exact)})::int
          + 0.25 * ts_rank(tsv, ${any}, 32)`
    : sql`0`
  // Small beside one word's cover: it orders equals, never puts a worse match above a better.
  const attention = input.today
    ? sql`coalesce((select case when t.status = 'blocked' then 0.1
                when t.status <> 'done' and t.due < ${input.today}::date then 0.1
                when t.status = 'done' then -0.05 else 0 end
              from tasks t where c.type = 'task' and t.workspace_id = ${ws} and t.id = c.id), 0)`
    : sql`0`
  const headline = any ?? sql`''::tsquery`
  // Projects the words name, among those the caller may open: their items share the words
  // ("what's late in checkout" finds the checkout project's tasks, whose titles never say it).
  // A word in the project's name covers almost as an item's own; one in its description, less.
  const linked = any
    ? sql`select p.id, array[${sql.join(
        terms.map(
          (term) => sql`case when p.tsv @@ ${titleOnly(termQuery(term))} then 0.9
            when p.tsv @@ ${termQuery(term)} then 0.4 else 0 end`,
        ),
      )}]::real[] as covers
      from resource_index p
      where p.workspace_id = ${ws} and p.type = 'project' and p.tsv @@ ${any} and ${visibility.row('p')}`
    : sql`select null::text as id, null::real[] as covers where false`
  const result = await sql<SearchRow>`
    with linked as (${linked}),
    matches as (
      select r.id, r.type, r.title, r.body, r.project_id, r.updated_at, r.tsv,
        null::text as subject_title, null::text as subject_crumb
      from (select distinct row_ctid from (${sql.join(indexSets, sql` union all `)}) w) m
      join resource_index r on r.ctid = m.row_ctid
    ),
    acts as (
      select distinct on (id) * from (${sql.join(actSets, sql` union all `)}) w
    ),
    candidates as (
      select * from matches
      union all
      select * from acts
      ${directory}
    ),
    ranked as (
      select id, type, title, body, project_id, updated_at, subject_title, subject_crumb,
             (${rank} + ${attention})::real as rank,
             ${nearAny ? sql`type <> 'activity' and tsv @@ ${nearAny}` : sql`false`} as title_near
      from (select c.*, l.covers as linked_covers
            from candidates c left join linked l on l.id = c.project_id) c
    ),
    page as (
      select * from ranked ${keyset}
      order by rank desc, updated_at desc, id desc
      limit ${input.limit + 1}
    ),
    -- The page's neighbours as scalar subqueries, not joins: each is planned on its own, which
    -- keeps the search for a join order (once longer than a rare word's search) out of the
    -- latency. A neighbour is named only when the caller may open it and its type is one the
    -- token reads.
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
        (select t.due from tasks t where page.type = 'task' and t.workspace_id = ${ws} and t.id = page.id) as task_due,
        (select t.status from tasks t where page.type = 'task' and t.workspace_id = ${ws} and t.id = page.id) as task_status,
        (select p.name from tasks t join people p on p.workspace_id = t.workspace_id and p.id = t.assignee_id
           where page.type = 'task' and t.workspace_id = ${ws} and t.id = page.id and ${visibility.person('p')}
             and 'person' = any(${readable})) as task_assignee,
        (select p.status from projects p where page.type = 'project' and p.workspace_id = ${ws} and p.id = page.id) as project_status,
        (select json_build_object('progress', o.progress, 'session', o.session, 'confidence', ${latestConfidence()})
           from objectives o where page.type = 'okr' and o.workspace_id = ${ws} and o.id = page.id) as okr_facts
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
        or title_near) as title_matched,
      canvas_summary,
      task_due,
      task_status,
      task_assignee,
      project_status,
      okr_facts,
      array_remove(array[project_title, coalesce(parent_title, target_crumb, subject_crumb)], null) as path
    from context
    order by rank desc, updated_at desc, id desc`.execute(db)
  return result.rows
}

/**
 * Whether a candidate's title is the query (normalized as `normalizeTitle` does). The regular
 * expression is costly beside ranking when run on every candidate (bench/HISTORY.md, "1,000,000
 * items"), so it runs only on titles that contain the query's longest word, which a title equal
 * to the query must.
 */
function titleIs(exact: string): RawBuilder<unknown> {
  const longest = exact.split(' ').reduce((a, b) => (b.length > a.length ? b : a), '')
  if (!longest) return sql`false`
  return sql`(type <> 'activity' and strpos(lower(title), ${longest}) > 0
    and lower(trim(regexp_replace(title, '[^[:alnum:]]+', ' ', 'g'))) = ${exact})`
}

/** A term as searched: with the vocabulary's words that its near misses stand for. */
interface SearchTerm extends QueryTerm {
  /** Title words a misspelled term nearly spells (empty when the term matches as it is). */
  near: string[]
}

/**
 * Title words as a query that only title text (weight A) matches; null without words. The words
 * are lexemes of the same `simple` vectors the index holds, so they are cast, not parsed again.
 */
function nearQuery(words: readonly string[]): RawBuilder<string> | null {
  if (words.length === 0) return null
  const lexemes = [...new Set(words)].map(
    (word) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}':A`,
  )
  return sql<string>`${lexemes.join(' | ')}::tsquery`
}

// Whether a candidate's title nearly spells a misspelled term (never an activity entry's).
function nearOf(term: SearchTerm): RawBuilder<unknown> {
  const near = nearQuery(term.near)
  return near ? sql` or (type <> 'activity' and tsv @@ ${near})` : sql``
}

/**
 * The terms as searched, decided among what the caller may open (`base` is the candidates'
 * condition: visible, filtered), so hidden items cannot change them:
 *
 * - **Near misses** (typo tolerance, the last word as a prefix) only for words that no candidate's
 *   text matches as they are: a typo or a half-typed word rarely matches anything, and a word that
 *   does is neither. It also keeps statements fast: the planner has no statistics for a prefix and
 *   guesses it common, so a window with one walked every row newest first for a word in no
 *   activity entry.
 * - **Words joined** ("road map" as "roadmap") only where some candidate has the joined word: a
 *   made-up one has no statistics either, and guessed common it made a question's window walk a
 *   large workspace newest first (bench/HISTORY.md, "Kinds, health and times in the question").
 *
 * A misspelled word's near misses are the vocabulary's words it nearly spells: found by pg_trgm's
 * word similarity (`<%`, the trigram index), kept when at most one edit away (two for words over
 * five letters). Comparing it with every title instead read a great many of them in a large
 * workspace, and similarity alone let a typo stand for many words that merely share syllables
 * (bench/HISTORY.md, "1,000,000 items").
 * The vocabulary holds hidden items' words too, so every such word is kept, never the first few:
 * a word only hidden titles have matches nothing the caller sees, and no cap lets it push out one
 * that would.
 */
async function termsAmongVisible(
  db: Db,
  workspaceId: string,
  terms: readonly QueryTerm[],
  base: RawBuilder<unknown> | null,
): Promise<SearchTerm[]> {
  const plain = (term: QueryTerm): SearchTerm => ({ ...term, fuzzy: null, prefix: null, near: [] })
  const near = terms.filter((term) => term.fuzzy || term.prefix)
  const joined = [...new Set(terms.flatMap((term) => term.joined))]
  if (near.length === 0 && joined.length === 0) return terms.map((term) => ({ ...term, near: [] }))
  if (base === null) return terms.map(plain)
  // Without the prefix, so that the words' own statistics pick the GIN index (a guessed-common
  // prefix made this a scan of every row). A joined word is one lexeme of the `simple` vectors.
  const exists = (query: RawBuilder<unknown>) =>
    sql`exists (select from resource_index r where ${base} and r.tsv @@ ${query})`
  const found = await sql<{ found: boolean[] }>`select array[${sql.join([
    ...near.map((term) => exists(termQuery({ ...term, prefix: null }))),
    ...joined.map((word) => exists(sql`to_tsquery('simple', ${word})`)),
  ])}] as found`.execute(db)
  const flags = found.rows[0]?.found ?? []
  const matched = new Set(near.filter((_, i) => flags[i]))
  const joinedFound = new Set(joined.filter((_, i) => flags[near.length + i]))
  const withJoined = (term: QueryTerm): QueryTerm => ({
    ...term,
    alternatives: [...term.alternatives, ...term.joined.filter((word) => joinedFound.has(word))],
  })
  const misspelled = near.flatMap((term) => (!matched.has(term) && term.fuzzy ? [term.fuzzy] : []))
  const words = new Map<string, string[]>()
  if (misspelled.length > 0) {
    const rows = await sql<{ typo: string; word: string }>`
      select distinct t.typo, w.word
      from unnest(${sql.val(misspelled)}::text[]) as t(typo)
      join title_words w on w.workspace_id = ${workspaceId} and t.typo <% w.word`.execute(db)
    for (const { typo, word } of rows.rows) {
      if (editDistance(typo, word, editsAllowed(typo)) <= editsAllowed(typo))
        words.set(typo, [...(words.get(typo) ?? []), word])
    }
  }
  return terms.map((term) =>
    matched.has(term) || !(term.fuzzy || term.prefix)
      ? { ...plain(withJoined(term)), near: [] }
      : { ...withJoined(term), near: term.fuzzy ? (words.get(term.fuzzy) ?? []).sort() : [] },
  )
}
