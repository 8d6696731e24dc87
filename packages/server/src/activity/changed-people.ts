import { sql } from 'kysely'
import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import type { FieldChange } from '../db/tables/activity.table.ts'

/**
 * A field's change as a reader is shown it: for a field naming a person (an assignee, an owner)
 * or a project's member (a person, team or integration), `from` and `to` are ids, and
 * `from_name`, `to_name` their names (docs/api.md, "Field changes").
 */
export interface ShownChange extends FieldChange {
  from_name?: string | null
  to_name?: string | null
}

/** The fields of a change whose values are ids of people (or of a project's other members). */
const PERSON_FIELDS: ReadonlySet<string> = new Set(['assignee_id', 'owner_id', 'member'])

/** Whether a changed field holds people's ids: left out of an entry's searchable text. */
export function isPersonField(field: string): boolean {
  return PERSON_FIELDS.has(field)
}

/** Who reads the changes: whom they may see, and whether their token may read people's names. */
export interface ChangeReader {
  visibility: Visibility
  readableKinds: readonly string[]
}

/**
 * The rows with their changes as the reader may see them. A person the reader may not see is
 * shown as `null`, as the task's own record shows a hidden assignee; a field whose two sides are
 * both hidden is left out, since it would tell only that something unseen changed. Names come
 * with the ids where the reader's token reads people, so a reassignment reads "from Ada to
 * Elena" without a call per person. Rows without a person's change cost no query.
 */
export async function showChangedPeople<Row extends { changes: Record<string, FieldChange> }>(
  db: Db,
  reader: ChangeReader,
  rows: readonly Row[],
): Promise<Row[]> {
  const ids = new Set<string>()
  for (const row of rows)
    for (const [field, change] of Object.entries(row.changes))
      if (isPersonField(field))
        for (const value of [change.from, change.to]) if (typeof value === 'string') ids.add(value)
  if (ids.size === 0) return [...rows]
  const seen = await seenPeople(db, reader.visibility, [...ids])
  const named = reader.readableKinds.includes('person')
  return rows.map((row) => ({ ...row, changes: shownChanges(row.changes, seen, named) }))
}

function shownChanges(
  changes: Record<string, FieldChange>,
  seen: ReadonlyMap<string, string>,
  named: boolean,
): Record<string, ShownChange> {
  const shown: Record<string, ShownChange> = {}
  for (const [field, change] of Object.entries(changes)) {
    if (!isPersonField(field)) {
      shown[field] = change
      continue
    }
    const from = personShown(change.from, seen)
    const to = personShown(change.to, seen)
    // A change always has a side that is someone, so two nulls are two hidden people.
    if (from === null && to === null) continue
    shown[field] = named
      ? { from, to, from_name: nameOf(from, seen), to_name: nameOf(to, seen) }
      : { from, to }
  }
  return shown
}

function personShown(id: unknown, seen: ReadonlyMap<string, string>): string | null {
  return typeof id === 'string' && seen.has(id) ? id : null
}

function nameOf(id: string | null, seen: ReadonlyMap<string, string>): string | null {
  return id === null ? null : (seen.get(id) ?? null)
}

// The names of the people, teams and integrations among `ids` the principal may see.
async function seenPeople(
  db: Db,
  visibility: Visibility,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const ws = visibility.principal.workspaceId
  const wanted = sql`any(${sql.val(ids)}::text[])`
  const { rows } = await sql<{ id: string; name: string }>`
    select p.id, p.name from people p
    where p.workspace_id = ${ws} and p.id = ${wanted} and ${visibility.person('p')}
    union all select t.id, t.name from teams t
    where t.workspace_id = ${ws} and t.id = ${wanted} and ${visibility.team('t')}
    union all select i.id, i.name from integrations i
    where i.workspace_id = ${ws} and i.id = ${wanted} and ${visibility.integration('i')}`.execute(
    db,
  )
  return new Map(rows.map((row) => [row.id, row.name]))
}
