import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import { PREPARED } from '../db/prepared-statements.ts'

/**
 * Gives the activity entries a write recorded their change-feed positions (docs/changes.md,
 * "Positions"), in the order they were recorded, from the workspace's counter. Run it as the
 * write's last statement: the counter's row then stays locked only from here to the commit, so
 * positions follow commit order while writers of one workspace wait on each other for no more
 * than a statement and a commit.
 */
export async function takePositions(
  trx: Db,
  workspaceId: string,
  activityIds: readonly string[],
): Promise<void> {
  if (activityIds.length === 0) return
  const count = activityIds.length
  await sql`with taken as (
      insert into change_positions (workspace_id, last) values (${workspaceId}, ${count})
      on conflict (workspace_id) do update set last = change_positions.last + ${count}
      returning last)
    update activity a set position = taken.last - ${count} + recorded.n
    from taken, unnest(${sql.val([...activityIds])}::text[]) with ordinality as recorded(id, n)
    where a.workspace_id = ${workspaceId} and a.id = recorded.id
    ${PREPARED}`.execute(trx)
}
