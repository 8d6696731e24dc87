import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely'
import { kindOfId } from '../catalogue/catalogue.ts'
import type { Db } from '../db/database.ts'
import { idKind } from '../lib/ids.ts'
import { canAdminister } from './administration.ts'
import type { Principal } from './principal.ts'

/*
 * THE place that decides who may open what (docs/permissions.md). Every read takes a
 * Visibility and filters with it, in the same statement as its ordering and LIMIT; single records
 * go through canOpen. Writes keep the resource index's `ws_visible` and `acl` in step through
 * resource-index.ts, which compiles the same rules. No query reaches content around them.
 */

/** SQL predicates of what one principal may see, for any query that reads content. */
export interface Visibility {
  readonly principal: Principal
  /** Sees every person, team and integration of the workspace (a non-guest member). */
  readonly seesEveryone: boolean
  /** Resource-index rows (alias `r`) the principal may open. */
  row(alias?: string): Expression<SqlBool>
  /**
   * The same test as `row`, shaped for a statement that may test thousands of rows (search's
   * candidate window): a member's long token list becomes a hash table built once per statement,
   * which saves microseconds a row. `row` stays the form for a handful of rows (link checks).
   */
  rowInBulk(alias?: string): Expression<SqlBool>
  /**
   * `rowInBulk` for rows known to be of one type (a list's page, which may walk past thousands of
   * hidden rows to fill): a guest's test then reaches the typed ACL index, which holds exactly
   * the guest's rows of that type.
   */
  rowOfType(alias: string, type: string): Expression<SqlBool>
  /**
   * Activity entries (alias `a`) the principal may see: the subject, whose resource-index row the
   * statement joins as `subject`, and every resource the entry mentions are open now. An entry is
   * dropped whole, never redacted. The subject is a join rather than a subquery so that the
   * planner can start from what the principal may open (a guest's few resources) instead of
   * testing every entry of the feed. `bulk` for statements that test many entries (search).
   */
  activity(alias?: string, subject?: string, rows?: 'page' | 'bulk'): Expression<SqlBool>
  /**
   * Activity entries (alias `a`) about a person or a team: the directory's own rule decides them
   * (`personId`, `teamId`), since people and teams have no resource-index row, and what they
   * mention must be open as for `activity`. They belong to no project, so a credential fenced to
   * projects sees none.
   */
  directoryActivity(alias?: string): Expression<SqlBool>
  /** People rows (alias `p`) the principal may see. */
  person(alias?: string): Expression<SqlBool>
  /** Team rows (alias `t`) the principal may see. */
  team(alias?: string): Expression<SqlBool>
  /** Integration rows (alias `i`) the principal may see. */
  integration(alias?: string): Expression<SqlBool>
  /** The column holds a person the principal may see (false when null). */
  personId(column: string): Expression<SqlBool>
  /** The column holds a team the principal may see (false when null). */
  teamId(column: string): Expression<SqlBool>
  /** The column holds an actor, a person or an integration, the principal may see. */
  actorId(column: string): Expression<SqlBool>
}

// Lists longer than this are passed hidden from the planner (see idList).
const LARGE_LIST = 32

/**
 * A list of ids as a SQL text array. A short list is a plain parameter, so the planner can
 * estimate it and use the ACL index (a guest's few tokens). A long one (a member of hundreds of
 * projects) is one text parameter split in an InitPlan: the planner then neither estimates it
 * element by element nor parses the array once per use, costs that exceeded the query itself
 * (bench/HISTORY.md, "What the measurements changed").
 */
function idList(ids: readonly string[]): RawBuilder<string[]> {
  if (ids.length <= LARGE_LIST) return sql<string[]>`${sql.val([...ids])}::text[]`
  return sql<string[]>`(select string_to_array(${ids.join(',')}::text, ','))::text[]`
}

/**
 * A member's bulk test of a row's ACL against many tokens, for rows that `ws_visible` does not
 * already open. `&&` compares every ACL entry with every token and unpacks the token array again
 * for each row: for a member of hundreds of projects that was most of a search's cost.
 * `= any(constant array)` probes a hash table built once per statement instead, far cheaper per
 * row for such a member (bench/HISTORY.md, "What the measurements changed"). The tokens go as one
 * string that the planner splits while folding constants: cheaper to send than an array literal,
 * and still the constant that the hashed `= any` needs.
 */
function aclMatchesInBulk(
  acl: RawBuilder<unknown>,
  tokens: readonly string[],
): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from unnest(${acl}) as entry(id) where entry.id = any(string_to_array(${tokens.join(',')}::text, ',')))`
}

// Every resource an activity entry (alias) mentions is open by `open`: an entry is dropped whole
// rather than shown with a hole where a hidden resource was.
function mentionsOpen(
  alias: string,
  open: (alias: string) => RawBuilder<SqlBool>,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (
    select 1 from unnest(${sql.ref(`${alias}.ref_ids`)}) as m(id)
    where not exists (
      select 1 from resource_index x
      where x.workspace_id = ${sql.ref(`${alias}.workspace_id`)} and x.id = m.id and ${open('x')}))`
}

/** The visibility of a principal: the only kind that production code builds. */
export function visibilityFor(principal: Principal): Visibility {
  const ws = principal.workspaceId
  const tokens = idList(principal.tokens)
  const teams = idList(principal.teamIds)
  const people = principal.visiblePeopleIds === null ? null : idList(principal.visiblePeopleIds)
  const inWorkspace = (alias: string) => sql<SqlBool>`(${sql.ref(`${alias}.workspace_id`)} = ${ws})`
  const shared = (alias: string) => sql<SqlBool>`${sql.ref(`${alias}.acl`)} && ${tokens}`
  const memberRow = (alias: string, sharedWith: (alias: string) => RawBuilder<SqlBool>) =>
    sql<SqlBool>`(${sql.ref(`${alias}.workspace_id`)} = ${ws} and (${sql.ref(`${alias}.ws_visible`)} or ${sharedWith(alias)}))`
  // Guests and integrations get SQL without the ws_visible branch, so their plans are driven by
  // the ACL index instead of scanning everything the workspace can see.
  const guestRow = (alias: string) =>
    sql<SqlBool>`(${sql.ref(`${alias}.workspace_id`)} = ${ws} and ${shared(alias)})`
  // `acl &&` stays beside the typed test: where the planner walks an index instead, it rejects
  // hidden rows before typed_acl (an SQL function, costed as such) builds an array for them.
  const guestRowOfType = (alias: string, type: string) =>
    sql<SqlBool>`(${guestRow(alias)} and typed_acl(${sql.ref(`${alias}.type`)}, ${sql.ref(`${alias}.acl`)}) && ${idList(principal.tokens.map((token) => `${type}:${token}`))})`
  const manyTokens = principal.tokens.length > LARGE_LIST
  const sharedInBulk = (alias: string) =>
    manyTokens ? aclMatchesInBulk(sql.ref(`${alias}.acl`), principal.tokens) : shared(alias)
  // A fenced credential opens only rows of its projects (docs/permissions.md, "Fenced
  // credentials"): one more conjunct on every resource-index test, so every read path, count and
  // activity entry built on them follows without a second copy of the rule.
  const fence = principal.fence === null ? null : idList(principal.fence)
  const fenced = (alias: string, test: RawBuilder<SqlBool>) =>
    fence === null
      ? test
      : sql<SqlBool>`(${test} and ${sql.ref(`${alias}.project_id`)} = any(${fence}))`
  const personId = (column: string) =>
    people === null
      ? sql<SqlBool>`(${sql.ref(column)} is not null)`
      : sql<SqlBool>`(${sql.ref(column)} = any(${people}))`
  const teamId = (column: string) =>
    principal.isMember
      ? sql<SqlBool>`(${sql.ref(column)} is not null)`
      : sql<SqlBool>`(${sql.ref(column)} = any(${teams}))`
  const row = (alias = 'r') =>
    fenced(alias, principal.isMember ? memberRow(alias, shared) : guestRow(alias))
  const rowInBulk = (alias = 'r') =>
    fenced(alias, principal.isMember ? memberRow(alias, sharedInBulk) : guestRow(alias))
  return {
    principal,
    seesEveryone: principal.isMember,
    row,
    rowInBulk,
    rowOfType: (alias, type) =>
      fenced(
        alias,
        principal.isMember ? memberRow(alias, sharedInBulk) : guestRowOfType(alias, type),
      ),
    activity: (alias = 'a', subject = 's', rows = 'page') => {
      const open = rows === 'bulk' ? rowInBulk : row
      return sql<SqlBool>`(${open(subject)} and ${mentionsOpen(alias, open)})`
    },
    directoryActivity: (alias = 'a') => {
      if (fence !== null) return sql<SqlBool>`false`
      const type = sql.ref(`${alias}.subject_type`)
      return sql<SqlBool>`(${sql.ref(`${alias}.workspace_id`)} = ${ws}
        and ((${type} = 'person' and ${personId(`${alias}.subject_id`)})
          or (${type} = 'team' and ${teamId(`${alias}.subject_id`)}))
        and ${mentionsOpen(alias, row)})`
    },
    // Members see everyone; guests and integrations the people resolved with their principal set.
    person: (alias = 'p') =>
      people === null
        ? inWorkspace(alias)
        : sql<SqlBool>`(${inWorkspace(alias)} and ${sql.ref(`${alias}.id`)} = any(${people}))`,
    team: (alias = 't') =>
      principal.isMember
        ? inWorkspace(alias)
        : sql<SqlBool>`(${inWorkspace(alias)} and ${sql.ref(`${alias}.id`)} = any(${teams}))`,
    integration: (alias = 'i') =>
      principal.isMember
        ? inWorkspace(alias)
        : sql<SqlBool>`(${inWorkspace(alias)} and ${sql.ref(`${alias}.id`)} = ${principal.actorId})`,
    personId,
    teamId,
    actorId: (column) =>
      people === null
        ? sql<SqlBool>`(${sql.ref(column)} is not null)`
        : sql<SqlBool>`(${sql.ref(column)} = any(${people}) or ${sql.ref(column)} = ${principal.actorId})`,
  }
}

/** The subset of `ids` of indexed types (project, canvas, task, objective, comment) that is open. */
export async function openableIds(
  db: Db,
  visibility: Visibility,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('resource_index as r')
    .select('r.id')
    .where('r.workspace_id', '=', visibility.principal.workspaceId)
    .where('r.id', '=', sql<string>`any(${idList(ids)})`)
    .where(visibility.row())
    .execute()
  return new Set(rows.map((row) => row.id))
}

/**
 * The subset of `ids` (of any type) that the principal may open: what a presenter keeps of a
 * record's links, so a link field never names a hidden neighbour. One query per kind present.
 */
export async function visibleAmong(
  db: Db,
  visibility: Visibility,
  ids: Iterable<string | null>,
): Promise<Set<string>> {
  const byKind = new Map<string, string[]>()
  const indexed: string[] = []
  for (const id of new Set(ids)) {
    if (id === null) continue
    // Every indexed kind is decided by its resource-index row, whatever kind it is.
    if (kindOfId(id)?.indexed) indexed.push(id)
    const kind = idKind(id) ?? 'unknown'
    byKind.set(kind, [...(byKind.get(kind) ?? []), id])
  }
  const ws = visibility.principal.workspaceId
  const visible = new Set<string>()
  const add = (rows: { id: string }[]) => {
    for (const row of rows) visible.add(row.id)
  }
  for (const id of await openableIds(db, visibility, indexed)) visible.add(id)
  const people = byKind.get('person')
  if (people)
    add(
      await db
        .selectFrom('people as p')
        .select('p.id')
        .where('p.id', 'in', people)
        .where(visibility.person())
        .execute(),
    )
  const teams = byKind.get('team')
  if (teams)
    add(
      await db
        .selectFrom('teams as t')
        .select('t.id')
        .where('t.id', 'in', teams)
        .where(visibility.team())
        .execute(),
    )
  const integrations = byKind.get('integration')
  if (integrations) {
    add(
      await db
        .selectFrom('integrations as i')
        .select('i.id')
        .where('i.id', 'in', integrations)
        .where(visibility.integration())
        .execute(),
    )
  }
  for (const id of byKind.get('workspace') ?? []) if (id === ws) visible.add(id)
  // An invitation is the subject of `person.invited`: the invitee is nobody's to see yet, and
  // inviting is administering, so only owners and admins hear of it (docs/webhooks.md).
  const invitations = byKind.get('invitation')
  if (invitations && canAdminister(visibility.principal))
    add(
      await db
        .selectFrom('invitations')
        .select('id')
        .where('workspace_id', '=', ws)
        .where('id', 'in', invitations)
        .execute(),
    )
  const inside = [...(byKind.get('key_result') ?? []), ...(byKind.get('checkin') ?? [])]
  if (inside.length > 0) {
    const rows = await db
      .selectFrom('key_results')
      .select(['id', 'objective_id'])
      .where('workspace_id', '=', ws)
      .where('id', 'in', inside)
      .union(
        db
          .selectFrom('checkins')
          .select(['id', 'objective_id'])
          .where('workspace_id', '=', ws)
          .where('id', 'in', inside),
      )
      .execute()
    const objectives = await openableIds(
      db,
      visibility,
      rows.map((row) => row.objective_id),
    )
    for (const row of rows) if (objectives.has(row.objective_id)) visible.add(row.id)
  }
  const activity = byKind.get('activity')
  if (activity)
    add(
      await db
        .selectFrom('activity as a')
        .leftJoin('resource_index as s', (join) =>
          join.onRef('s.workspace_id', '=', 'a.workspace_id').onRef('s.id', '=', 'a.subject_id'),
        )
        .select('a.id')
        .where('a.workspace_id', '=', ws)
        .where('a.id', 'in', activity)
        .where((eb) =>
          eb.or([
            eb.and([eb('s.id', 'is not', null), visibility.activity()]),
            visibility.directoryActivity(),
          ]),
        )
        .execute(),
    )
  return visible
}

/**
 * Whether the principal may open the resource with this id, of any type. Unknown, malformed and
 * hidden ids all answer false: callers turn that into one and the same 404. An activity entry is
 * open only when its subject and everything it mentions are open.
 */
export async function canOpen(db: Db, visibility: Visibility, id: string): Promise<boolean> {
  return (await visibleAmong(db, visibility, [id])).has(id)
}
