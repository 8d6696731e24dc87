import type { Db } from '../db/database.ts'

/**
 * Deletes webhook history older than the retention period: attempts, finished deliveries, and
 * dispatched events no unfinished delivery still needs. A replay of what was swept is a 404.
 */
export async function sweepWebhookHistory(db: Db, now: Date, retentionDays: number): Promise<void> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000)
  await db.deleteFrom('webhook_attempts').where('started_at', '<', cutoff).execute()
  await db
    .deleteFrom('webhook_deliveries')
    .where('updated_at', '<', cutoff)
    .where('status', 'in', ['succeeded', 'failed', 'skipped'])
    .execute()
  await db
    .deleteFrom('events as v')
    .where('v.created_at', '<', cutoff)
    .where('v.dispatched_at', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as d')
            .select('d.id')
            .whereRef('d.workspace_id', '=', 'v.workspace_id')
            .whereRef('d.event_id', '=', 'v.id'),
        ),
      ),
    )
    .execute()
}
