import type { Selectable } from 'kysely'
import type { Principal } from '../access/principal.ts'
import type { Db } from '../db/database.ts'
import { newestFirstAfter } from '../db/keyset.ts'
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from '../db/tables/webhook.table.ts'
import type { CursorPosition } from '../lib/cursor.ts'

/** An endpoint row. */
export type EndpointRow = Selectable<WebhookEndpointsTable>
/** A delivery row. */
export type DeliveryRow = Selectable<WebhookDeliveriesTable>
/** An attempt row. */
export type AttemptRow = Selectable<WebhookAttemptsTable>

/**
 * The caller's live endpoints, newest first. An endpoint is seen and managed only by its owner:
 * its deliveries carry what the owner may open, which not even an admin may read through it.
 */
export async function listEndpoints(
  db: Db,
  principal: Principal,
  filter: { ids?: readonly string[] },
  after: CursorPosition | null,
  limit: number,
): Promise<EndpointRow[]> {
  let query = db
    .selectFrom('webhook_endpoints as e')
    .selectAll()
    .where(newestFirstAfter('e', after))
    .where('workspace_id', '=', principal.workspaceId)
    .where('owner_id', '=', principal.actorId)
    .where('deleted_at', 'is', null)
  if (filter.ids) query = query.where('id', 'in', filter.ids.length ? filter.ids : [''])
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
}

/** One of the caller's endpoints, or undefined (unknown, deleted or someone else's). */
export async function findEndpoint(
  db: Db,
  principal: Principal,
  id: string,
): Promise<EndpointRow | undefined> {
  const [row] = await listEndpoints(db, principal, { ids: [id] }, null, 1)
  return row
}

/** An endpoint's deliveries, newest first, with an optional status filter. */
export async function listDeliveries(
  db: Db,
  endpoint: EndpointRow,
  filter: { status?: string | undefined; ids?: readonly string[] },
  after: CursorPosition | null,
  limit: number,
): Promise<DeliveryRow[]> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .selectAll()
    .where(newestFirstAfter('d', after))
    .where('workspace_id', '=', endpoint.workspace_id)
    .where('endpoint_id', '=', endpoint.id)
  if (filter.ids) query = query.where('id', 'in', filter.ids.length ? filter.ids : [''])
  if (filter.status === 'pending') query = query.where('status', 'in', ['pending', 'in_flight'])
  else if (filter.status) query = query.where('status', '=', filter.status as DeliveryRow['status'])
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
}

/** Every attempt of these deliveries, oldest first, grouped by delivery. */
export async function attemptsOf(
  db: Db,
  workspaceId: string,
  deliveryIds: readonly string[],
): Promise<Map<string, AttemptRow[]>> {
  const byDelivery = new Map<string, AttemptRow[]>()
  if (deliveryIds.length === 0) return byDelivery
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempt')
    .execute()
  for (const row of rows)
    byDelivery.set(row.delivery_id, [...(byDelivery.get(row.delivery_id) ?? []), row])
  return byDelivery
}
