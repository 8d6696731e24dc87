import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { Visibility } from './visibility.ts'

/**
 * Whether `wider` opens everything `narrower` opens: every resource (through the same predicates
 * as every read) and every person. What a person hands to another principal, such as a token
 * that acts as an integration, must never open more than they can themselves
 * (docs/permissions.md, "What a credential reaches").
 */
export async function opensAllOf(
  db: Db,
  wider: Visibility,
  narrower: Visibility,
): Promise<boolean> {
  const ws = narrower.principal.workspaceId
  const { rows } = await sql<{ beyond: boolean }>`
    select exists (
      select 1 from resource_index r
      where r.workspace_id = ${ws} and ${narrower.row('r')} and not ${wider.row('r')}
    ) or exists (
      select 1 from people p
      where p.workspace_id = ${ws} and ${narrower.person('p')} and not ${wider.person('p')}
    ) or exists (
      select 1 from teams t
      where t.workspace_id = ${ws} and ${narrower.team('t')} and not ${wider.team('t')}
    ) as beyond`.execute(db)
  return rows[0]?.beyond === false
}
