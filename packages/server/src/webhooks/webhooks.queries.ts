import { type Selectable, sql } from 'kysely'
import type { Caller } from '../access/caller.ts'
import { coveredBy } from '../access/credential-reach.ts'
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
/** An endpoint as its owner reads it: its project filter reduced to what the owner opens now. */
export type ListedEndpoint = EndpointRow & { visible_project_ids: string[] | null }
/** A delivery row. */
export type DeliveryRow = Selectable<WebhookDeliveriesTable>
/** An attempt row. */
export type AttemptRow = Selectable<WebhookAttemptsTable>

/**
 * The caller's live endpoints, newest first. An endpoint is seen and managed only by its owner
 * (its deliveries carry what the owner may open, which not even an admin may read through it),
 * and only through a credential that covers what the endpoint reaches (access/credential-reach.ts):
 * a narrower key of the owner never reads or steers a wider endpoint.
 */
export async function listEndpoints(
  db: Db,
  caller: Caller,
  filter: { ids?: readonly string[] },
  after: CursorPosition | null,
  limit: number,
): Promise<ListedEndpoint[]> {
  let query = db
    .selectFrom('webhook_endpoints as e')
    .selectAll()
    .select(
      sql<string[] | null>`case when e.project_ids is null then null else array(
        select p.id from unnest(e.project_ids) with ordinality as p(id, n)
        where exists (select 1 from resource_index r
          where r.workspace_id = e.workspace_id and r.id = p.id and ${caller.visibility.row('r')})
        order by p.n) end`.as('visible_project_ids'),
    )
    .where(newestFirstAfter('e', after))
    .where('workspace_id', '=', caller.principal.workspaceId)
    .where('owner_id', '=', caller.principal.actorId)
    .where('deleted_at', 'is', null)
    .where(coveredBy(caller.credential, 'e.owner_scopes', 'e.owner_project_ids'))
  if (filter.ids) query = query.where('id', 'in', filter.ids.length ? filter.ids : [''])
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
}

/** One of the caller's endpoints, or undefined (unknown, deleted, someone else's, or wider). */
export async function findEndpoint(
  db: Db,
  caller: Caller,
  id: string,
): Promise<ListedEndpoint | undefined> {
  const [row] = await listEndpoints(db, caller, { ids: [id] }, null, 1)
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
