import { type RawBuilder, sql } from 'kysely'
import type { Caller } from '../access/caller.ts'
import type { Db } from '../db/database.ts'
import { foldedSql, foldName } from '../lib/folded-names.ts'
import { idKind } from '../lib/ids.ts'
import { personOrMe } from './me-reference.ts'
import { notFound, ProblemError } from './problem-catalogue.ts'

/** The kinds a caller may give by name wherever their id is asked for. */
export type NamedKind = 'person' | 'team' | 'project'

// How many of the things an ambiguous name names are listed: enough to pick from.
const CANDIDATES_LISTED = 10

/**
 * A person, team or project given by id, by `me` (a person) or by name, as the id it refers to
 * (docs/api.md, "Names for ids"). An id is returned as given: whether it may be opened is checked
 * where every id is, so a hidden id stays the one 404. A name is looked up among what the caller
 * may see, and only when its token reads that kind: the whole name, ignoring case; else the
 * names it is a whole-word part of ("Ada" for "Ada Lovelace"). One match is the answer; none is
 * the 404 of an unknown id, so a hidden name answers as an unknown one; several are a 422 that
 * lists them (all visible to the caller), to pick an id from.
 */
export async function namedReference<T extends string | null | undefined>(
  db: Db,
  caller: Pick<Caller, 'visibility' | 'readableKinds'>,
  kind: NamedKind,
  value: T,
  path: string,
): Promise<T | string> {
  if (value === null || value === undefined) return value
  if (kind === 'person') {
    const person = personOrMe(value, caller.visibility.principal, path)
    if (person !== value) return person
  }
  if (idKind(value) !== null || !caller.readableKinds.includes(kind)) return value
  const named = await namesMatching(db, caller, kind, value)
  const whole = named.filter((row) => row.whole)
  const found = whole.length > 0 ? whole : named
  if (found.length === 1 && found[0]) return found[0].id
  if (found.length === 0) throw notFound(path)
  const message = `names ${found.length > CANDIDATES_LISTED ? 'many' : found.length} ${plural(kind)} you may see; give one of their ids`
  throw new ProblemError('validation_failed', `The name at ${path} is ambiguous.`, {
    errors: [
      {
        path,
        message,
        candidates: found.slice(0, CANDIDATES_LISTED).map(({ id, name }) => ({ id, name })),
      },
    ],
  })
}

function plural(kind: NamedKind): string {
  return kind === 'person' ? 'people' : `${kind}s`
}

// The things of `kind` the caller may see whose name is `value` (whole) or has it as whole words.
async function namesMatching(
  db: Db,
  caller: Pick<Caller, 'visibility'>,
  kind: NamedKind,
  value: string,
): Promise<{ id: string; name: string; whole: boolean }[]> {
  const wanted = foldName(value.trim().replace(/\s+/g, ' '))
  if (wanted === '') return []
  const { visibility } = caller
  const ws = visibility.principal.workspaceId
  const named = (column: string) => {
    const name = foldedSql(sql.ref(column))
    const part = `% ${wanted.replace(/[\\%_]/g, '\\$&')} %`
    return {
      whole: sql<boolean>`${name} = ${wanted}`,
      matches: sql<boolean>`(${name} = ${wanted} or ' ' || ${name} || ' ' like ${part})`,
    }
  }
  const rows = (from: RawBuilder<unknown>, column: string, visible: RawBuilder<unknown>) => {
    const { whole, matches } = named(column)
    return sql<{ id: string; name: string; whole: boolean }>`
      select x.id, ${sql.ref(column)} as name, ${whole} as whole from ${from}
      where x.workspace_id = ${ws} and ${matches} and ${visible}
      order by ${whole} desc, ${sql.ref(column)}, x.id
      limit ${CANDIDATES_LISTED + 1}`
  }
  const query =
    kind === 'person'
      ? rows(sql`people x`, 'x.name', sql`${visibility.person('x')}`)
      : kind === 'team'
        ? rows(sql`teams x`, 'x.name', sql`${visibility.team('x')}`)
        : rows(sql`resource_index x`, 'x.title', sql`x.type = 'project' and ${visibility.row('x')}`)
  return (await query.execute(db)).rows
}
