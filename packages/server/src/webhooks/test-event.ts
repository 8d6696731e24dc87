import { ProblemError } from '../api/problem-catalogue.ts'
import { recordAudit } from '../audit/audit-writer.ts'
import { newId } from '../lib/ids.ts'
import { currentTraceParent } from '../lib/trace-parent.ts'
import type { WriteContext } from '../writes/write-context.ts'
import type { DeliveryRow, EndpointRow } from './webhooks.queries.ts'

/** The type of a test event: sent to one endpoint on request, never fanned out. */
export const TEST_EVENT_TYPE = 'webhook.test'

/**
 * Queues a test event for one endpoint (`webhook.test`, about the endpoint itself, which its owner
 * may always open): signed, sent, retried and logged like any delivery, so a receiver can be
 * checked end to end. The event is written already dispatched, so no other endpoint hears of it.
 */
export async function sendTestEvent(w: WriteContext, endpoint: EndpointRow): Promise<DeliveryRow> {
  if (endpoint.status !== 'active')
    throw new ProblemError('conflict', 'The endpoint is disabled; enable it first.')
  const ws = endpoint.workspace_id
  const eventId = newId('event')
  const object = { id: endpoint.id, type: 'webhook', url: endpoint.url, test: true }
  await w.trx
    .insertInto('events')
    .values({
      workspace_id: ws,
      id: eventId,
      type: TEST_EVENT_TYPE,
      subject_id: endpoint.id,
      subject_type: 'webhook',
      actor_id: w.principal.actorId,
      data: JSON.stringify({ object }),
      created_at: w.now,
      dispatched_at: w.now,
      trace_parent: currentTraceParent(),
    })
    .execute()
  const row = await w.trx
    .insertInto('webhook_deliveries')
    .values({
      workspace_id: ws,
      id: newId('delivery'),
      endpoint_id: endpoint.id,
      event_id: eventId,
      event_type: TEST_EVENT_TYPE,
      status: 'pending',
      next_attempt_at: w.now,
      created_at: w.now,
      updated_at: w.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await recordAudit(
    w.trx,
    w.actor,
    {
      action: 'webhook.test_sent',
      resourceId: endpoint.id,
      resourceType: 'webhook',
      before: null,
      after: { delivery_id: row.id },
    },
    w.now,
  )
  return row
}
