import { randomBytes } from 'node:crypto'
import { type Selectable, sql } from 'kysely'
import type { Role } from '../access/principal.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import type { WebhookEndpointsTable } from '../db/tables/webhook.table.ts'
import { bindingLive } from './endpoint-binding.ts'
import { disableEndpoint } from './endpoint-health.ts'

/**
 * A claim lasts this long. It must outlast one attempt (15 s) and its bookkeeping; a dispatcher
 * that dies holding a claim delays that delivery by at most this much, and then another one sends
 * it again (the only duplicates at-least-once delivery allows).
 */
const LEASE_MS = 60_000

// Endpoints locked per round at most; the rest wait for the next one.
const ENDPOINTS_PER_ROUND = 100

/** An event's data as the outbox holds it: every link included. */
export interface EventData {
  object: Record<string, unknown>
  /** The earlier values of the object's fields an update changed. */
  previous_attributes?: Record<string, unknown>
}

/** The endpoint, its event and its owner's standing, read with the claim (one statement). */
export interface DeliveryRow extends Selectable<WebhookEndpointsTable> {
  type: string
  subject_id: string
  subject_type: string
  data: EventData
  event_at: Date
  /** The writing request's `traceparent`, when it was traced. */
  trace_parent: string | null
  acl_epoch: string | number
  owner_role: Role | null
  owner_integration: string | null
}

/** A delivery this dispatcher holds a lease on. */
export interface ClaimedDelivery {
  workspaceId: string
  id: string
  endpointId: string
  eventId: string
  /** The number of this attempt (every attempt ever made, this one included). */
  attempt: number
  /** Attempts of the current run, this one included: what the retry schedule counts. */
  runAttempts: number
  /** Fences the result: only the holder of the current lease may record the new state. */
  lock: string
  /** What sending needs, as it was when the claim committed, just before sending. */
  row: DeliveryRow
}

/**
 * Claims up to `capacity` due deliveries: pending or retrying ones whose time has come, and
 * in-flight ones whose lease ran out. Endpoints with due work and room are taken in random order,
 * each up to `perEndpoint` deliveries in flight at once counted across every dispatcher: the
 * endpoint rows are locked (SKIP LOCKED, so dispatchers never wait on each other), then one
 * statement counts what is in flight and claims, so two dispatchers never both fill one endpoint.
 * The claim commits before anything is sent. `backlog` tells whether there was work to take.
 * Endpoints in `passOver` are left for this round (the dispatcher's slow ones).
 */
export async function claimDue(
  deps: AppDeps,
  capacity: number,
  perEndpoint: number,
  passOver: readonly EndpointRef[] = [],
): Promise<{ claims: ClaimedDelivery[]; backlog: boolean }> {
  if (capacity <= 0) return { claims: [], backlog: true }
  const now = deps.clock.now()
  // Twice as many endpoints as would fill the capacity: some have less due than their room.
  const wanted = Math.min(ENDPOINTS_PER_ROUND, 2 * Math.ceil(capacity / perEndpoint))
  return deps.db.transaction().execute(async (trx) => {
    const locked = await lockEndpoints(trx, wanted, perEndpoint, now, passOver)
    if (locked.length === 0) return { claims: [], backlog: false }
    const claimable: { workspace_id: string; id: string }[] = []
    for (const endpoint of locked) {
      // A credential that ended on its own (expired, or revoked by the authorization server) is
      // found here, once a round rather than once a delivery: the endpoint stops, nothing is sent.
      if (endpoint.status === 'active' && !endpoint.live)
        await disableEndpoint(trx, endpoint.workspace_id, endpoint.id, 'credential_revoked', now)
      else claimable.push(endpoint)
    }
    if (claimable.length === 0) return { claims: [], backlog: true }
    const lock = randomBytes(9).toString('base64url')
    const claims = await claimRows(trx, { endpoints: claimable, capacity, perEndpoint, lock, now })
    return { claims, backlog: true }
  })
}

/** An endpoint, by its workspace and id. */
export interface EndpointRef {
  workspaceId: string
  endpointId: string
}

// Endpoints with due work and room by the last committed count, locked for this round.
async function lockEndpoints(
  trx: Db,
  wanted: number,
  perEndpoint: number,
  now: Date,
  passOver: readonly EndpointRef[],
): Promise<{ workspace_id: string; id: string; status: string; live: boolean }[]> {
  const result = await sql<{ workspace_id: string; id: string; status: string; live: boolean }>`
    select e.workspace_id, e.id, e.status, ${bindingLive(now)} as live
    from webhook_endpoints e
    where (e.workspace_id, e.id) not in (
        select * from unnest(${passOver.map((e) => e.workspaceId)}::text[],
          ${passOver.map((e) => e.endpointId)}::text[]))
      and (exists (select from webhook_deliveries d
          where d.workspace_id = e.workspace_id and d.endpoint_id = e.id
            and d.status in ('pending', 'retrying') and d.next_attempt_at <= ${now})
        or exists (select from webhook_deliveries d
          where d.workspace_id = e.workspace_id and d.endpoint_id = e.id
            and d.status = 'in_flight' and d.locked_until < ${now}))
      and (select count(*) from webhook_deliveries d
          where d.workspace_id = e.workspace_id and d.endpoint_id = e.id
            and d.status = 'in_flight' and d.locked_until >= ${now}) < ${perEndpoint}
    order by random()
    limit ${wanted}
    for update of e skip locked`.execute(trx)
  return result.rows
}

// One statement: each endpoint's room (a fresh count, now that its row is locked), its expired
// leases first and then what is due, oldest first; the capacity shared out round-robin; the
// claimed rows returned with everything sending needs.
async function claimRows(
  trx: Db,
  target: {
    endpoints: { workspace_id: string; id: string }[]
    capacity: number
    perEndpoint: number
    lock: string
    now: Date
  },
): Promise<ClaimedDelivery[]> {
  const { now, lock } = target
  const result = await sql<
    DeliveryRow & {
      delivery_id: string
      event_id: string
      attempt_count: number
      run_attempts: number
    }
  >`
    with ep as (
      select x.workspace_id, x.id, greatest(0, ${target.perEndpoint} - (
        select count(*) from webhook_deliveries d
        where d.workspace_id = x.workspace_id and d.endpoint_id = x.id
          and d.status = 'in_flight' and d.locked_until >= ${now}))::int as room
      from unnest(${target.endpoints.map((e) => e.workspace_id)}::text[],
        ${target.endpoints.map((e) => e.id)}::text[]) as x(workspace_id, id)
    ),
    expired as (
      select ep.room, c.* from ep cross join lateral (
        select d.workspace_id, d.id, d.endpoint_id, 0 as rank, d.locked_until as since
        from webhook_deliveries d
        where d.workspace_id = ep.workspace_id and d.endpoint_id = ep.id
          and d.status = 'in_flight' and d.locked_until < ${now}
        order by d.locked_until limit ep.room
        for update of d skip locked) c
    ),
    due as (
      select ep.room, c.* from ep cross join lateral (
        select d.workspace_id, d.id, d.endpoint_id, 1 as rank, d.next_attempt_at as since
        from webhook_deliveries d
        where d.workspace_id = ep.workspace_id and d.endpoint_id = ep.id
          and d.status in ('pending', 'retrying') and d.next_attempt_at <= ${now}
        order by d.next_attempt_at limit ep.room
        for update of d skip locked) c
    ),
    ranked as (
      select u.*, row_number() over (partition by u.workspace_id, u.endpoint_id
        order by u.rank, u.since) as n
      from (select * from expired union all select * from due) u
    ),
    chosen as (
      select workspace_id, id from ranked where n <= room order by n limit ${target.capacity}
    ),
    claimed as (
      update webhook_deliveries d
      set status = 'in_flight', locked_by = ${lock},
        locked_until = ${new Date(now.getTime() + LEASE_MS)},
        attempt_count = d.attempt_count + 1, run_attempts = d.run_attempts + 1, updated_at = ${now}
      from chosen
      where d.workspace_id = chosen.workspace_id and d.id = chosen.id
      returning d.workspace_id, d.id, d.endpoint_id, d.event_id, d.attempt_count, d.run_attempts
    )
    select c.id as delivery_id, c.event_id, c.attempt_count, c.run_attempts, e.*,
      v.type, v.subject_id, v.subject_type, v.data, v.created_at as event_at, v.trace_parent,
      w.acl_epoch, case when p.deactivated_at is null then p.role end as owner_role,
      i.id as owner_integration
    from claimed c
    join webhook_endpoints e on e.workspace_id = c.workspace_id and e.id = c.endpoint_id
    join events v on v.workspace_id = c.workspace_id and v.id = c.event_id
    join workspaces w on w.id = c.workspace_id
    left join people p on p.workspace_id = e.workspace_id and p.id = e.owner_id
    left join integrations i on i.workspace_id = e.workspace_id and i.id = e.owner_id`.execute(trx)
  return result.rows.map((row) => ({
    workspaceId: row.workspace_id,
    id: row.delivery_id,
    endpointId: row.id,
    eventId: row.event_id,
    attempt: row.attempt_count,
    runAttempts: row.run_attempts,
    lock,
    row,
  }))
}
