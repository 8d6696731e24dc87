import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { AppDeps } from '../app-deps.ts'

/**
 * A claim lasts this long. It must outlast one attempt (15 s) and its bookkeeping; a dispatcher
 * that dies holding a claim delays that delivery by at most this much, and then another one sends
 * it again (the only duplicates at-least-once delivery allows).
 */
export const LEASE_MS = 60_000

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
 * in-flight ones whose lease ran out. Endpoints are served oldest-due first, each up to
 * `perEndpoint` deliveries in flight at once counted across every dispatcher (the endpoint row is
 * locked while its claim is made), so one slow receiver cannot take every slot. Each claim commits
 * before anything is sent.
 */
export async function claimDue(
  deps: AppDeps,
  capacity: number,
  perEndpoint: number,
): Promise<ClaimedDelivery[]> {
  if (capacity <= 0) return []
  const now = deps.clock.now()
  const due = (alias: string) =>
    sql<boolean>`((${sql.ref(`${alias}.status`)} in ('pending', 'retrying') and ${sql.ref(`${alias}.next_attempt_at`)} <= ${now})
      or (${sql.ref(`${alias}.status`)} = 'in_flight' and ${sql.ref(`${alias}.locked_until`)} < ${now}))`
  const endpoints = await deps.db
    .selectFrom('webhook_deliveries as d')
    .select(['d.workspace_id', 'd.endpoint_id'])
    .select(sql<Date>`min(coalesce(d.next_attempt_at, d.locked_until))`.as('due_at'))
    .where(due('d'))
    .groupBy(['d.workspace_id', 'd.endpoint_id'])
    .orderBy('due_at')
    .limit(100)
    .execute()
  const claimed: ClaimedDelivery[] = []
  for (const endpoint of endpoints) {
    const room = capacity - claimed.length
    if (room <= 0) break
    claimed.push(
      ...(await claimForEndpoint(
        deps,
        endpoint.workspace_id,
        endpoint.endpoint_id,
        room,
        perEndpoint,
        now,
        due,
      )),
    )
  }
  return claimed
}

async function claimForEndpoint(
  deps: AppDeps,
  workspaceId: string,
  endpointId: string,
  room: number,
  perEndpoint: number,
  now: Date,
  due: (alias: string) => ReturnType<typeof sql<boolean>>,
): Promise<ClaimedDelivery[]> {
  return deps.db.transaction().execute(async (trx) => {
    // Another dispatcher is claiming for this endpoint right now: leave it to that one.
    const locked = await trx
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', endpointId)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst()
    if (!locked) return []
    const inFlight = await trx
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'in_flight')
      .where('locked_until', '>=', now)
      .executeTakeFirstOrThrow()
    const take = Math.min(room, perEndpoint - Number(inFlight.n))
    if (take <= 0) return []
    const lock = `${randomBytes(9).toString('base64url')}`
    const rows = await trx
      .updateTable('webhook_deliveries as d')
      .set({
        status: 'in_flight',
        locked_by: lock,
        locked_until: new Date(now.getTime() + LEASE_MS),
        attempt_count: sql`d.attempt_count + 1`,
        run_attempts: sql`d.run_attempts + 1`,
        updated_at: now,
      })
      .where('d.workspace_id', '=', workspaceId)
      .where(
        'd.id',
        'in',
        trx
          .selectFrom('webhook_deliveries as d')
          .select('d.id')
          .where('d.workspace_id', '=', workspaceId)
          .where('d.endpoint_id', '=', endpointId)
          .where(due('d'))
          .orderBy('d.next_attempt_at')
          .limit(take)
          .forUpdate()
          .skipLocked(),
      )
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
      lock,
    }))
  })
}
