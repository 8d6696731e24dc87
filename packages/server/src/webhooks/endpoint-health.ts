import type { Db } from '../db/database.ts'
import type { EndpointDisabledReason } from '../db/tables/webhook.table.ts'
import { DISABLE_AFTER_MS } from './retry-policy.ts'

// A healthy endpoint's last_success_at is refreshed at most this often: a busy endpoint's
// successes would otherwise queue on its row lock.
const SUCCESS_REFRESH_MS = 60_000

/** Whether a success must be written: after failures, or when last_success_at is getting old. */
export function successNeedsRecording(
  endpoint: { failing_since: Date | null; last_success_at: Date | null },
  now: Date,
): boolean {
  return (
    endpoint.failing_since !== null ||
    endpoint.last_success_at === null ||
    now.getTime() - endpoint.last_success_at.getTime() > SUCCESS_REFRESH_MS
  )
}

/**
 * Tracks whether an endpoint still works: any success resets the clock; the first failure after a
 * success starts it; a failure five days after that disables the endpoint (never deletes it).
 */
export async function recordEndpointHealth(
  db: Db,
  workspaceId: string,
  endpointId: string,
  succeeded: boolean,
  now: Date,
): Promise<void> {
  if (succeeded) {
    // The same rule as successNeedsRecording, against the row as it is now.
    await db
      .updateTable('webhook_endpoints')
      .set({ last_success_at: now, failing_since: null })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', endpointId)
      .where((eb) =>
        eb.or([
          eb('failing_since', 'is not', null),
          eb('last_success_at', 'is', null),
          eb('last_success_at', '<', new Date(now.getTime() - SUCCESS_REFRESH_MS)),
        ]),
      )
      .execute()
    return
  }
  const endpoint = await db
    .updateTable('webhook_endpoints as e')
    .set((eb) => ({ failing_since: eb.fn.coalesce('e.failing_since', eb.val(now)) }))
    .where('e.workspace_id', '=', workspaceId)
    .where('e.id', '=', endpointId)
    .returning(['e.failing_since', 'e.status'])
    .executeTakeFirst()
  if (
    endpoint?.status === 'active' &&
    endpoint.failing_since !== null &&
    now.getTime() - endpoint.failing_since.getTime() >= DISABLE_AFTER_MS
  ) {
    await disableEndpoint(db, workspaceId, endpointId, 'failing', now)
  }
}

/**
 * Turns an endpoint off with a reason. Its waiting deliveries become `skipped` (kept, so they can
 * be replayed once it works again), as do new events until it is re-enabled. Returns whether it
 * was on.
 */
export async function disableEndpoint(
  db: Db,
  workspaceId: string,
  endpointId: string,
  reason: EndpointDisabledReason,
  now: Date,
): Promise<boolean> {
  const disabled = await db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, disabled_at: now, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', endpointId)
    .where('status', '=', 'active')
    .executeTakeFirst()
  await skipWaitingDeliveries(db, workspaceId, endpointId, skipReason(reason), now)
  return disabled.numUpdatedRows > 0n
}

/** What a delivery skipped because its endpoint stopped records as its last error. */
export function skipReason(reason: EndpointDisabledReason): string {
  return reason === 'credential_revoked' ? 'credential_revoked' : 'endpoint_disabled'
}

/** Marks the endpoint's waiting deliveries skipped, with why: nothing is sent for them. */
export async function skipWaitingDeliveries(
  db: Db,
  workspaceId: string,
  endpointId: string,
  lastError: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'skipped', last_error: lastError, next_attempt_at: null, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('endpoint_id', '=', endpointId)
    .where('status', 'in', ['pending', 'retrying'])
    .execute()
}
