import { sql } from 'kysely'
import type { Dispatcher } from 'undici'
import { canOpen } from '../access/visibility.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import type { DeliveryStatus } from '../db/tables/webhook.table.ts'
import type { ClaimedDelivery } from './delivery-queue.ts'
import { buildDeliveryRequest, type DeliveryRequest } from './delivery-request.ts'
import { type SendResult, sendDelivery } from './delivery-sender.ts'
import {
  disableEndpoint,
  recordEndpointHealth,
  skipReason,
  successNeedsRecording,
} from './endpoint-health.ts'
import { openableLinks, ownerAccessFrom, scopeReads } from './endpoint-owner.ts'
import { openEndpointSecrets } from './endpoint-secrets.ts'
import { linkedIds, redactLinks } from './redact-links.ts'
import { MAX_ATTEMPTS, outcomeOf, retryDelayMs } from './retry-policy.ts'
import { checkEndpointUrl, DESTINATION_NOT_ALLOWED } from './ssrf-guard.ts'
import { TEST_EVENT_TYPE } from './test-event.ts'

/** What sending needs beside the app's dependencies. */
export interface SendContext {
  readonly deps: AppDeps
  /** The guarded HTTP client: every address is checked when the socket opens. */
  readonly agent: Dispatcher
  /** Source of the retry jitter, in [0, 1). */
  readonly random: () => number
  /** One attempt's deadline. */
  readonly timeoutMs: number
}

/**
 * Makes one claimed attempt: re-checks at send time that the endpoint is live and that its owner
 * may still open the subject, shows the owner only the links it may open, signs with the secrets
 * valid now, sends through the guarded client and records the attempt and the new state.
 */
export async function deliverOne(context: SendContext, claimed: ClaimedDelivery): Promise<void> {
  const { deps } = context
  const row = await deps.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', (join) =>
      join.onRef('e.workspace_id', '=', 'd.workspace_id').onRef('e.id', '=', 'd.endpoint_id'),
    )
    .innerJoin('events as v', (join) =>
      join.onRef('v.workspace_id', '=', 'd.workspace_id').onRef('v.id', '=', 'd.event_id'),
    )
    .innerJoin('workspaces as w', 'w.id', 'd.workspace_id')
    .leftJoin('people as p', (join) =>
      join.onRef('p.workspace_id', '=', 'e.workspace_id').onRef('p.id', '=', 'e.owner_id'),
    )
    .leftJoin('integrations as i', (join) =>
      join.onRef('i.workspace_id', '=', 'e.workspace_id').onRef('i.id', '=', 'e.owner_id'),
    )
    .selectAll('e')
    .select(['v.type', 'v.subject_id', 'v.subject_type', 'v.data', 'v.created_at as event_at'])
    .select(['w.acl_epoch', 'p.role as owner_role', 'i.id as owner_integration'])
    .where('d.workspace_id', '=', claimed.workspaceId)
    .where('d.id', '=', claimed.id)
    .executeTakeFirst()
  if (!row) return
  // Claims count attempts before sending, so a delivery whose sending keeps crashing its
  // dispatcher (and losing its lease) still runs out of attempts instead of looping forever.
  if (claimed.runAttempts > MAX_ATTEMPTS) {
    await settle(deps.db, claimed, 'failed', 'attempts_exhausted', deps.clock.now())
    return
  }
  // Stopped since the claim (by its owner, or with the credential it is bound to): not sent.
  if (row.deleted_at !== null || row.status !== 'active') {
    const why = row.deleted_at
      ? 'endpoint_deleted'
      : skipReason(row.disabled_reason ?? 'disabled_by_owner')
    await settle(deps.db, claimed, 'skipped', why, deps.clock.now())
    return
  }
  // Everything about the owner came with the delivery: no further lookups on the hot path.
  const access = await ownerAccessFrom(deps, deps.db, row, {
    aclEpoch: String(row.acl_epoch),
    ownerRole: row.owner_role ?? (row.owner_integration ? 'integration' : null),
  })
  // A test event is about the endpoint itself, which its owner may always open.
  const test = row.type === TEST_EVENT_TYPE
  if (
    !access ||
    (!test &&
      (!scopeReads(access, row.subject_type) ||
        !(await canOpen(deps.db, access.visibility, row.subject_id))))
  ) {
    await settle(deps.db, claimed, 'skipped', 'not_visible', deps.clock.now())
    return
  }
  const object = row.data.object
  const links = await openableLinks(deps.db, access, linkedIds(object))
  const startedAt = deps.clock.now()
  const secrets = openEndpointSecrets(deps, row, startedAt)
  const request = buildDeliveryRequest({
    event: {
      id: claimed.eventId,
      type: row.type,
      workspaceId: row.workspace_id,
      createdAt: row.event_at,
    },
    object: redactLinks(object, links),
    deliveryId: claimed.id,
    attempt: claimed.attempt,
    sentAt: Math.floor(startedAt.getTime() / 1000),
    secret: secrets.current,
    previousSecret: secrets.previous,
  })
  const destination = checkEndpointUrl(row.url, {
    allowHttpLoopback: deps.config.webhooksAllowHttpLoopback,
  })
  const result: SendResult = destination.ok
    ? await sendDelivery(
        context.agent,
        destination.url,
        request.headers,
        request.body,
        context.timeoutMs,
      )
    : {
        status: null,
        responseBody: null,
        retryAfter: null,
        errorKind: DESTINATION_NOT_ALLOWED,
        durationMs: 0,
      }
  await recordAttempt(context, claimed, row, request, result, startedAt)
}

/** The endpoint's health as loaded with the delivery. */
interface EndpointState {
  url: string
  failing_since: Date | null
  last_success_at: Date | null
}

// Logs the attempt and ends the lease with the new state in one statement (atomic without a
// transaction); the endpoint's health is touched only when it changes.
async function recordAttempt(
  context: SendContext,
  claimed: ClaimedDelivery,
  endpoint: EndpointState,
  request: DeliveryRequest,
  result: SendResult,
  startedAt: Date,
): Promise<void> {
  const { deps } = context
  const now = deps.clock.now()
  const outcome = outcomeOf(result.status)
  const delay =
    outcome === 'failed'
      ? retryDelayMs(
          {
            runAttempts: claimed.runAttempts,
            status: result.status,
            errorKind: result.errorKind,
            retryAfter: result.retryAfter,
            now,
          },
          context.random,
        )
      : null
  const status: DeliveryStatus =
    outcome === 'succeeded' ? 'succeeded' : delay === null ? 'failed' : 'retrying'
  const settled = await sql<{ id: string }>`
    with attempt as (
      insert into webhook_attempts (workspace_id, delivery_id, attempt, trigger, started_at,
        duration_ms, url, request_headers, request_body, response_status, response_body, error_kind)
      values (${claimed.workspaceId}, ${claimed.id}, ${claimed.attempt},
        ${claimed.attempt > claimed.runAttempts ? 'replay' : 'auto'}, ${startedAt},
        ${result.durationMs}, ${endpoint.url}, ${JSON.stringify(request.headers)}::jsonb,
        ${request.body}, ${result.status}, ${result.responseBody}, ${result.errorKind})
      on conflict do nothing
    )
    update webhook_deliveries
    set status = ${status}, last_error = ${result.errorKind},
      next_attempt_at = ${delay === null ? null : new Date(now.getTime() + delay)},
      locked_by = null, locked_until = null, updated_at = ${now}
    where workspace_id = ${claimed.workspaceId} and id = ${claimed.id}
      and status = 'in_flight' and locked_by = ${claimed.lock}
    returning id`.execute(deps.db)
  // A lost lease: the attempt stays in the log, but the state belongs to the new holder.
  if (settled.rows.length === 0) return
  const { workspaceId, endpointId } = claimed
  if (outcome === 'gone')
    await disableEndpoint(deps.db, workspaceId, endpointId, 'receiver_gone', now)
  else if (outcome === 'failed' || successNeedsRecording(endpoint, now))
    await recordEndpointHealth(deps.db, workspaceId, endpointId, outcome === 'succeeded', now)
}

// Ends this lease with a final state; a lease lost to another dispatcher changes nothing.
async function settle(
  db: Db,
  claimed: ClaimedDelivery,
  status: DeliveryStatus,
  error: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status,
      last_error: error,
      next_attempt_at: null,
      locked_by: null,
      locked_until: null,
      updated_at: now,
    })
    .where('workspace_id', '=', claimed.workspaceId)
    .where('id', '=', claimed.id)
    .where('status', '=', 'in_flight')
    .where('locked_by', '=', claimed.lock)
    .execute()
}
