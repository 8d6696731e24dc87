import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import { bindingLive } from './endpoint-binding.ts'
import { disableEndpoint } from './endpoint-health.ts'

/**
 * A claim lasts this long. It must outlast one attempt (15 s) and its bookkeeping; a dispatcher
 * that dies holding a claim delays that delivery by at most this much, and then another one sends
 * it again (the only duplicates at-least-once delivery allows).
 */
const LEASE_MS = 60_000

// Endpoints looked at per round; the rest wait for the next one.
const ENDPOINTS_PER_ROUND = 100

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
}

/**
 * Claims up to `capacity` due deliveries: pending or retrying ones whose time has come, and
 * in-flight ones whose lease ran out. Endpoints with due work are served in random order, each up
 * to `perEndpoint` deliveries in flight at once counted across every dispatcher (the endpoint row
 * is locked while its claim is made), so one endpoint's backlog or slowness cannot starve another.
 * Each claim commits before anything is sent. `backlog` tells whether due work was seen at all.
 */
export async function claimDue(
  deps: AppDeps,
  capacity: number,
  perEndpoint: number,
): Promise<{ claims: ClaimedDelivery[]; backlog: boolean }> {
  if (capacity <= 0) return { claims: [], backlog: true }
  const now = deps.clock.now()
  // Endpoints are few; each probe is one look into a partial index of the queue.
  const endpoints = await deps.db
    .selectFrom('webhook_endpoints as e')
    .select(['e.workspace_id', 'e.id'])
    .where(({ exists, or, selectFrom }) =>
      or([
        exists(
          selectFrom('webhook_deliveries as d')
            .select('d.id')
            .whereRef('d.workspace_id', '=', 'e.workspace_id')
            .whereRef('d.endpoint_id', '=', 'e.id')
            .where('d.status', 'in', ['pending', 'retrying'])
            .where('d.next_attempt_at', '<=', now),
        ),
        exists(
          selectFrom('webhook_deliveries as d')
            .select('d.id')
            .whereRef('d.workspace_id', '=', 'e.workspace_id')
            .whereRef('d.endpoint_id', '=', 'e.id')
            .where('d.status', '=', 'in_flight')
            .where('d.locked_until', '<', now),
        ),
      ]),
    )
    .orderBy(sql`random()`)
    .limit(ENDPOINTS_PER_ROUND)
    .execute()
  const claims: ClaimedDelivery[] = []
  for (const endpoint of endpoints) {
    const room = capacity - claims.length
    if (room <= 0) break
    claims.push(
      ...(await claimForEndpoint(deps, endpoint.workspace_id, endpoint.id, room, perEndpoint, now)),
    )
  }
  return { claims, backlog: endpoints.length > 0 }
}

async function claimForEndpoint(
  deps: AppDeps,
  workspaceId: string,
  endpointId: string,
  room: number,
  perEndpoint: number,
  now: Date,
): Promise<ClaimedDelivery[]> {
  return deps.db.transaction().execute(async (trx) => {
    // Another dispatcher is claiming for this endpoint right now: leave it to that one.
    const locked = await trx
      .selectFrom('webhook_endpoints as e')
      .select(['e.status', sql<boolean>`${bindingLive(now)}`.as('live')])
      .where('e.workspace_id', '=', workspaceId)
      .where('e.id', '=', endpointId)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst()
    if (!locked) return []
    // A credential that ended on its own (expired, or revoked by the authorization server) is
    // found here, once a round rather than once a delivery: the endpoint stops and nothing is sent.
    if (locked.status === 'active' && !locked.live) {
      await disableEndpoint(trx, workspaceId, endpointId, 'credential_revoked', now)
      return []
    }
    const inFlight = await trx
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'in_flight')
      .where('locked_until', '>=', now)
      .executeTakeFirstOrThrow()
    let take = Math.min(room, perEndpoint - Number(inFlight.n))
    const lock = randomBytes(9).toString('base64url')
    const claims: ClaimedDelivery[] = []
    // Expired leases first (they have waited longest), then what is due, oldest first.
    for (const expired of [true, false]) {
      if (take <= 0) break
      const rows = await claimRows(trx, { workspaceId, endpointId, expired, take, lock, now })
      take -= rows.length
      claims.push(...rows)
    }
    return claims
  })
}

async function claimRows(
  trx: Db,
  target: {
    workspaceId: string
    endpointId: string
    expired: boolean
    take: number
    lock: string
    now: Date
  },
): Promise<ClaimedDelivery[]> {
  const { workspaceId, endpointId, now } = target
  let candidates = trx
    .selectFrom('webhook_deliveries as d')
    .select('d.id')
    .where('d.workspace_id', '=', workspaceId)
    .where('d.endpoint_id', '=', endpointId)
  candidates = target.expired
    ? candidates
        .where('d.status', '=', 'in_flight')
        .where('d.locked_until', '<', now)
        .orderBy('d.locked_until')
    : candidates
        .where('d.status', 'in', ['pending', 'retrying'])
        .where('d.next_attempt_at', '<=', now)
        .orderBy('d.next_attempt_at')
  const rows = await trx
    .updateTable('webhook_deliveries as d')
    .set({
      status: 'in_flight',
      locked_by: target.lock,
      locked_until: new Date(now.getTime() + LEASE_MS),
      attempt_count: sql`d.attempt_count + 1`,
      run_attempts: sql`d.run_attempts + 1`,
      updated_at: now,
    })
    .where('d.workspace_id', '=', workspaceId)
    .where('d.id', 'in', candidates.limit(target.take).forUpdate().skipLocked())
    .returning([
      'd.workspace_id',
      'd.id',
      'd.endpoint_id',
      'd.event_id',
      'd.attempt_count',
      'd.run_attempts',
    ])
    .execute()
  return rows.map((row) => ({
    workspaceId: row.workspace_id,
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    attempt: row.attempt_count,
    runAttempts: row.run_attempts,
    lock: target.lock,
  }))
}
