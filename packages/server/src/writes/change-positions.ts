import { sql } from 'kysely'
import type { Db } from '../db/database.ts'

// Entries numbered by one pass at most; a busier backlog is numbered over several reads.
const PASS_LIMIT = 10_000

/**
 * Numbers the committed activity entries of a workspace that have no change-feed position yet
 * (docs/changes.md, "Positions"), in the order they were written, after the last position given.
 * Writes leave the position empty, so they never wait on one another for it; the feed numbers
 * what has committed before it reads. Passes of several readers take turns on the workspace's
 * counter row, so a number is given once, and a reader that sees position n sees every position
 * below it: only committed entries are numbered, by passes that committed before.
 */
export async function numberCommittedChanges(db: Db, workspaceId: string): Promise<void> {
  const pending = await sql<{ pending: boolean }>`select exists (
      select from activity where workspace_id = ${workspaceId} and position is null) as pending`
    .execute(db)
    .then((result) => result.rows[0]?.pending ?? false)
  if (!pending) return
  await db.transaction().execute(async (trx) => {
    // The counter's row lock first, in a statement of its own: the numbering below then reads a
    // snapshot taken after the pass before it committed, so it never numbers an entry twice.
    await sql`insert into change_positions (workspace_id, last) values (${workspaceId}, 0)
      on conflict (workspace_id) do update set last = change_positions.last`.execute(trx)
    await sql`with pending as (
        select id, row_number() over (order by written) as n
        from activity where workspace_id = ${workspaceId} and position is null
        order by written limit ${PASS_LIMIT}),
      numbered as (
        update activity a set position = c.last + p.n
        from pending p, change_positions c
        where c.workspace_id = ${workspaceId} and a.workspace_id = ${workspaceId} and a.id = p.id
        returning 1)
      update change_positions set last = last + (select count(*) from numbered)
      where workspace_id = ${workspaceId}`.execute(trx)
  })
}
