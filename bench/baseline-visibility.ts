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
    person: (alias = 'p') => ws(alias),
    team: (alias = 't') => ws(alias),
    integration: (alias = 'i') => ws(alias),
    personId: present,
    teamId: present,
    actorId: present,
  }
}
