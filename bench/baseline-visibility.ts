import { type SqlBool, sql } from 'kysely'
import type { Principal } from '../packages/server/src/access/principal.ts'
import type { Visibility } from '../packages/server/src/access/visibility.ts'

/**
 * For benchmarks only: the same queries without the permission predicate, so that its cost can be
 * reported as a ratio. Everything in the workspace is "visible". Production code never builds
 * this; it lives outside `src/` on purpose.
 */
export function baselineVisibility(principal: Principal): Visibility {
  const present = (column: string) => sql<SqlBool>`(${sql.ref(column)} is not null)`
  const ws = (alias: string) =>
    sql<SqlBool>`(${sql.ref(`${alias}.workspace_id`)} = ${principal.workspaceId})`
  return {
    principal,
    seesEveryone: true,
    row: (alias = 'r') => ws(alias),
    rowInBulk: (alias = 'r') => ws(alias),
    rowOfType: (alias) => ws(alias),
    activity: (_alias, subject = 's') => ws(subject),
    directoryActivity: (alias = 'a') => ws(alias),
    person: (alias = 'p') => ws(alias),
    team: (alias = 't') => ws(alias),
    integration: (alias = 'i') => ws(alias),
    personId: present,
    teamId: present,
    actorId: present,
  }
}

/**
 * The two runs of one iteration (with the predicate and without), in turns: whichever runs first
 * reads the pages into the buffer cache for the other, which must not always favour the same side.
 */
export function inTurns<T>(iteration: number, first: T, second: T): T[] {
  return iteration % 2 === 0 ? [first, second] : [second, first]
}
