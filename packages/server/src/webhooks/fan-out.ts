import { type Insertable, sql } from 'kysely'
import { visibleAmong } from '../access/visibility.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import type { WebhookDeliveriesTable } from '../db/tables/webhook.table.ts'
import { newId } from '../lib/ids.ts'
import { bindingLive } from './endpoint-binding.ts'
import { disableEndpoint, skipReason } from './endpoint-health.ts'
import { ownerAccess, scopeReads } from './endpoint-owner.ts'

/** Outbox events taken per fan-out transaction. */
const FAN_OUT_BATCH = 200

/**
 * Turns committed outbox events into deliveries, one per subscribed endpoint whose owner may open
 * the event's subject (an event about something hidden from the owner leaves no trace there), in
 * one transaction with marking the events dispatched. Events are locked with SKIP LOCKED, so
 * dispatchers never wait on each other; a crash redoes the batch and the unique (event,
 * endpoint) pair keeps it from doubling. Disabled endpoints get `skipped` deliveries, so nothing
 * is lost while they are off. Returns how many events it took.
 */
export async function fanOutEvents(deps: AppDeps, limit = FAN_OUT_BATCH): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const events = await trx
      .selectFrom('events')
      .select(['workspace_id', 'id', 'type', 'subject_id', 'subject_type', 'created_at'])
      .where('dispatched_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute()
    if (events.length === 0) return 0
    const now = deps.clock.now()
    const endpoints = await trx
      .selectFrom('webhook_endpoints as e')
      .selectAll()
      .select(sql<boolean>`${bindingLive(now)}`.as('credential_live'))
      .where('e.workspace_id', 'in', [...new Set(events.map((event) => event.workspace_id))])
      .where('e.deleted_at', 'is', null)
      .execute()
    const deliveries: Insertable<WebhookDeliveriesTable>[] = []
    const projectOf = endpoints.some((endpoint) => endpoint.project_ids !== null)
      ? await subjectProjects(trx, events)
      : new Map<string, string | null>()
    for (const endpoint of endpoints) {
      // An endpoint hears of what happens after it was created, never of an older backlog; one
      // filtered to projects, only of what belongs to them.
      const subscribed = events.filter(
        (event) =>
          event.workspace_id === endpoint.workspace_id &&
          endpoint.event_types.includes(event.type) &&
          event.created_at >= endpoint.created_at &&
          (endpoint.project_ids === null ||
            endpoint.project_ids.includes(projectOf.get(event.subject_id) ?? '')),
      )
      if (subscribed.length === 0) continue
      const access = await ownerAccess(deps, trx, endpoint)
      if (!access) continue
      const readable = subscribed.filter((event) => scopeReads(access, event.subject_type))
      const open = await visibleAmong(
        trx,
        access.visibility,
        readable.map((event) => event.subject_id),
      )
      // An endpoint whose credential ended on its own (expired, or revoked by the authorization
      // server) is found here first: it stops now, and what reaches it is kept as skipped.
      if (endpoint.status === 'active' && !endpoint.credential_live)
        await disableEndpoint(trx, endpoint.workspace_id, endpoint.id, 'credential_revoked', now)
      const active = endpoint.status === 'active' && endpoint.credential_live
      const stopped = endpoint.credential_live
        ? (endpoint.disabled_reason ?? 'disabled_by_owner')
        : 'credential_revoked'
      for (const event of readable) {
        if (!open.has(event.subject_id)) continue
        deliveries.push({
          workspace_id: endpoint.workspace_id,
          id: newId('delivery'),
          endpoint_id: endpoint.id,
          event_id: event.id,
          event_type: event.type,
          status: active ? 'pending' : 'skipped',
          next_attempt_at: active ? now : null,
          last_error: active ? null : skipReason(stopped),
          created_at: now,
          updated_at: now,
        })
      }
    }
    for (let i = 0; i < deliveries.length; i += 500) {
      await trx
        .insertInto('webhook_deliveries')
        .values(deliveries.slice(i, i + 500))
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'event_id', 'endpoint_id']).doNothing(),
        )
        .execute()
    }
    await trx
      .updateTable('events')
      .set({ dispatched_at: now })
      .where(
        'id',
        'in',
        events.map((event) => event.id),
      )
      .execute()
    return events.length
  })
}

/**
 * The project each event's subject belongs to, as the resource index holds it (a project is its
 * own; a comment, its resource's). People and teams have no row, and so no project.
 */
async function subjectProjects(
  db: Db,
  events: readonly { workspace_id: string; subject_id: string }[],
): Promise<Map<string, string | null>> {
  const rows = await db
    .selectFrom('resource_index')
    .select(['id', 'project_id'])
    .where('workspace_id', 'in', [...new Set(events.map((event) => event.workspace_id))])
    .where('id', 'in', [...new Set(events.map((event) => event.subject_id))])
    .execute()
  return new Map(rows.map((row) => [row.id, row.project_id]))
}
