import { namedReference } from '../api/named-reference.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import { requireVisible } from '../api/require-visible.ts'
import { recordAudit } from '../audit/audit-writer.ts'
import { EVENT_TYPES } from '../catalogue/verbs.ts'
import type { AuditAction } from '../db/tables/audit.table.ts'
import { newId } from '../lib/ids.ts'
import { ruleBroken } from '../writes/business-rule.ts'
import type { WriteContext } from '../writes/write-context.ts'
import { changedBinding, newBinding } from './endpoint-binding.ts'
import { skipWaitingDeliveries } from './endpoint-health.ts'
import { secretContext } from './endpoint-secrets.ts'
import { checkEndpointUrl } from './ssrf-guard.ts'
import { newWebhookSecret } from './webhook-signature.ts'
import { auditedEndpoint } from './webhooks.present.ts'
import type { DeliveryRow, EndpointRow } from './webhooks.queries.ts'

/**
 * The projects an endpoint is to hear of, as ids: each given by id or name and one the caller may
 * open, else the 404 of an unknown id at its place in the list. Undefined and null pass through.
 */
async function projectFilter<T extends string[] | null | undefined>(
  w: WriteContext,
  given: T,
): Promise<T | string[]> {
  if (!given) return given
  const ids: string[] = []
  for (const [i, value] of given.entries()) {
    const path = `/project_ids/${i}`
    const id = await namedReference(w.trx, w, 'project', value, path)
    await requireVisible(w.trx, w.visibility, [[path, 'project', id]])
    if (!ids.includes(id)) ids.push(id)
  }
  return ids
}

/** Live endpoints one workspace may have: enough for any integration, bounded fan-out. */
const MAX_ENDPOINTS_PER_WORKSPACE = 50

function checkedUrl(w: WriteContext, url: string): string {
  const check = checkEndpointUrl(url, {
    allowHttpLoopback: w.deps.config.webhooksAllowHttpLoopback,
  })
  if (!check.ok) throw ruleBroken('/url', check.reason)
  return check.url
}

/**
 * Registers an endpoint owned by the caller and bound to the caller's credential (to the person,
 * from the dashboard: `bindingOf`): it receives only what that owner may open, within what the
 * credential reaches, while the binding works. The secret is sealed at rest and returned once.
 */
export async function createEndpoint(
  w: WriteContext,
  input: {
    url: string
    events?: string[] | undefined
    project_ids?: string[] | undefined
    description?: string | undefined
  },
): Promise<{ row: EndpointRow; secret: string }> {
  const url = checkedUrl(w, input.url)
  const projectIds = await projectFilter(w, input.project_ids)
  const ws = w.principal.workspaceId
  const live = await w.trx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', ws)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow()
  if (Number(live.n) >= MAX_ENDPOINTS_PER_WORKSPACE)
    throw ruleBroken(
      '/url',
      `A workspace may have at most ${MAX_ENDPOINTS_PER_WORKSPACE} endpoints.`,
    )
  const id = newId('webhook')
  const secret = newWebhookSecret()
  const row = await w.trx
    .insertInto('webhook_endpoints')
    .values({
      workspace_id: ws,
      id,
      url,
      description: input.description ?? null,
      event_types: EVENT_TYPES.filter((type) => (input.events ?? EVENT_TYPES).includes(type)),
      project_ids: projectIds ?? null,
      status: 'active',
      owner_id: w.principal.actorId,
      owner_kind: w.principal.actorKind,
      ...newBinding(w.caller),
      secret_sealed: w.deps.secrets.seal(secret, secretContext(ws, id)),
      created_at: w.now,
      updated_at: w.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await audit(w, 'webhook.created', row.id, null, auditedEndpoint(row))
  return { row, secret }
}

/**
 * Changes an endpoint's URL, events, description or status. Any change binds the endpoint to the
 * credential that makes it, within what both reach (`changedBinding`): whoever steers an endpoint
 * answers for it, and the endpoint ends with their credential. Re-enabling also resets its health
 * (the credential it was bound to may have ended: that is one reason an endpoint is disabled).
 */
export async function updateEndpoint(
  w: WriteContext,
  before: EndpointRow,
  input: {
    url?: string
    events?: string[]
    project_ids?: string[] | null
    description?: string | null
    status?: 'active' | 'disabled'
  },
): Promise<EndpointRow> {
  const projectIds = await projectFilter(w, input.project_ids)
  const enabling = input.status === 'active' && before.status === 'disabled'
  const disabling = input.status === 'disabled' && before.status === 'active'
  const row = await w.trx
    .updateTable('webhook_endpoints')
    .set({
      ...(input.url !== undefined && { url: checkedUrl(w, input.url) }),
      ...(input.events && {
        event_types: EVENT_TYPES.filter((type) => input.events?.includes(type)),
      }),
      ...(projectIds !== undefined && { project_ids: projectIds }),
      ...(input.description !== undefined && { description: input.description }),
      ...changedBinding(w.caller, before),
      ...(enabling && {
        status: 'active',
        disabled_reason: null,
        disabled_at: null,
        failing_since: null,
      }),
      ...(disabling && {
        status: 'disabled',
        disabled_reason: 'disabled_by_owner',
        disabled_at: w.now,
      }),
      updated_at: w.now,
    })
    .where('workspace_id', '=', before.workspace_id)
    .where('id', '=', before.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  if (disabling)
    await skipWaitingDeliveries(w.trx, row.workspace_id, row.id, 'endpoint_disabled', w.now)
  await audit(w, 'webhook.updated', row.id, auditedEndpoint(before), auditedEndpoint(row))
  return row
}

/** Deletes an endpoint (its history stays until retention sweeps it); waiting deliveries stop. */
export async function deleteEndpoint(w: WriteContext, before: EndpointRow): Promise<void> {
  await w.trx
    .updateTable('webhook_endpoints')
    .set({ deleted_at: w.now, updated_at: w.now })
    .where('workspace_id', '=', before.workspace_id)
    .where('id', '=', before.id)
    .execute()
  await skipWaitingDeliveries(w.trx, before.workspace_id, before.id, 'endpoint_deleted', w.now)
  await audit(w, 'webhook.deleted', before.id, auditedEndpoint(before), null)
}

/**
 * A new signing secret. The old one keeps signing `x-service-signature-previous` for the grace
 * period (0 ends it now). One previous secret at most: rotating again during an overlap is a 409
 * unless `force`, which drops the older one at once.
 */
export async function rotateSecret(
  w: WriteContext,
  endpoint: EndpointRow,
  input: { grace_period_seconds?: number | undefined; force?: boolean | undefined },
): Promise<{ secret: string; previousExpiresAt: Date | null }> {
  const overlapping = endpoint.previous_expires_at !== null && endpoint.previous_expires_at > w.now
  if (overlapping && !input.force) {
    throw new ProblemError(
      'conflict',
      'The previous secret is still in its grace period; wait until it expires, or pass "force": true to end it now.',
    )
  }
  const grace = input.grace_period_seconds ?? 86_400
  const secret = newWebhookSecret()
  const context = secretContext(endpoint.workspace_id, endpoint.id)
  const previousExpiresAt = grace > 0 ? new Date(w.now.getTime() + grace * 1000) : null
  await w.trx
    .updateTable('webhook_endpoints')
    .set({
      secret_sealed: w.deps.secrets.seal(secret, context),
      previous_secret_sealed: previousExpiresAt ? endpoint.secret_sealed : null,
      previous_expires_at: previousExpiresAt,
      updated_at: w.now,
    })
    .where('workspace_id', '=', endpoint.workspace_id)
    .where('id', '=', endpoint.id)
    .execute()
  await audit(w, 'webhook.secret_rotated', endpoint.id, null, {
    grace_period_seconds: grace,
    previous_expires_at: previousExpiresAt?.toISOString() ?? null,
  })
  return { secret, previousExpiresAt }
}

/**
 * Sends a delivery again now, with a fresh run of retries: the same event id (receivers dedupe
 * on it), a new attempt number and `sent_at`, signed with the current secrets. Visibility is
 * checked again when it is sent.
 */
export async function replayDelivery(
  w: WriteContext,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
): Promise<DeliveryRow> {
  if (endpoint.status !== 'active')
    throw new ProblemError('conflict', 'The endpoint is disabled; enable it first.')
  if (delivery.status === 'in_flight')
    throw new ProblemError('conflict', 'This delivery is being sent right now.', {
      headers: { 'retry-after': '15' },
    })
  const row = await w.trx
    .updateTable('webhook_deliveries')
    .set(restartedRun(w.now))
    .where('workspace_id', '=', delivery.workspace_id)
    .where('id', '=', delivery.id)
    .where('status', '!=', 'in_flight')
    .returningAll()
    .executeTakeFirstOrThrow()
  await audit(w, 'webhook.delivery_replayed', endpoint.id, null, { delivery_id: delivery.id })
  return row
}

/** Queues again every failed or skipped delivery of the endpoint created since a time. */
export async function recoverDeliveries(
  w: WriteContext,
  endpoint: EndpointRow,
  since: Date,
): Promise<number> {
  if (endpoint.status !== 'active')
    throw new ProblemError('conflict', 'The endpoint is disabled; enable it first.')
  const result = await w.trx
    .updateTable('webhook_deliveries')
    .set(restartedRun(w.now))
    .where('workspace_id', '=', endpoint.workspace_id)
    .where('endpoint_id', '=', endpoint.id)
    .where('status', 'in', ['failed', 'skipped'])
    .where('created_at', '>=', since)
    .executeTakeFirst()
  const replayed = Number(result.numUpdatedRows)
  await audit(w, 'webhook.recovered', endpoint.id, null, { since: since.toISOString(), replayed })
  return replayed
}

// A delivery sent again: due now, with a fresh run of retries (attempt numbers keep counting).
function restartedRun(now: Date) {
  return {
    status: 'pending',
    run_attempts: 0,
    next_attempt_at: now,
    last_error: null,
    updated_at: now,
  } as const
}

async function audit(
  w: WriteContext,
  action: AuditAction,
  endpointId: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Promise<void> {
  await recordAudit(
    w.trx,
    w.actor,
    { action, resourceId: endpointId, resourceType: 'webhook', before, after },
    w.now,
  )
}
