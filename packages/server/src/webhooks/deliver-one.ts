import type { Dispatcher } from 'undici'
import { linkedIds, redactLinks } from '../access/redact-links.ts'
import { visibleAmong } from '../access/visibility.ts'
import type { AppDeps } from '../app-deps.ts'
import type { DeliveryStatus } from '../db/tables/webhook.table.ts'
import { inAttemptSpan } from './attempt-span.ts'
import type { AckWriter } from './delivery-acks.ts'
import type { ClaimedDelivery } from './delivery-queue.ts'
import { buildDeliveryRequest } from './delivery-request.ts'
import { type SendResult, sendDelivery } from './delivery-sender.ts'
import { skipReason } from './endpoint-health.ts'
import { type OwnerAccess, openableLinks, ownerAccessFrom, scopeReads } from './endpoint-owner.ts'
import { openEndpointSecrets } from './endpoint-secrets.ts'
import { MAX_ATTEMPTS, outcomeOf, retryDelayMs } from './retry-policy.ts'
import { checkEndpointUrl, DESTINATION_NOT_ALLOWED } from './ssrf-guard.ts'
import { TEST_EVENT_TYPE } from './test-event.ts'

/** What sending needs beside the app's dependencies. */
export interface SendContext {
  readonly deps: AppDeps
  /** The guarded HTTP client: every address is checked when the socket opens. */
  readonly agent: Dispatcher
  /** Where finished deliveries are recorded, in groups. */
  readonly acks: AckWriter
  /** Source of the retry jitter, in [0, 1). */
  readonly random: () => number
  /** One attempt's deadline. */
  readonly timeoutMs: number
}

/** An endpoint owner's access now, and which of a round's subjects and links it may open. */
export interface OwnerView {
  access: OwnerAccess | null
  /** The round's subjects the owner may open (whose type its scopes read). */
  subjects: ReadonlySet<string>
  /** The round's links the owner may open and whose kind its scopes read. */
  links: ReadonlySet<string>
}

/**
 * Checks, once per endpoint for a whole round of claims, what its owner may open now: every
 * subject and every link of the round's events in one query, instead of one or two per delivery.
 */
export async function viewsOfOwners(
  deps: AppDeps,
  claims: readonly ClaimedDelivery[],
): Promise<Map<string, OwnerView>> {
  const byEndpoint = new Map<string, ClaimedDelivery[]>()
  for (const claim of claims) {
    const key = endpointKey(claim)
    const group = byEndpoint.get(key) ?? []
    group.push(claim)
    byEndpoint.set(key, group)
  }
  const views = new Map<string, OwnerView>()
  for (const [key, group] of byEndpoint) {
    const { row } = group[0] as ClaimedDelivery
    const access = await ownerAccessFrom(deps, deps.db, row, {
      aclEpoch: String(row.acl_epoch),
      ownerRole: row.owner_role ?? (row.owner_integration ? 'integration' : null),
    })
    if (!access) {
      views.set(key, { access, subjects: new Set(), links: new Set() })
      continue
    }
    const subjects = group
      .filter((claim) => scopeReads(access, claim.row.subject_type))
      .map((claim) => claim.row.subject_id)
    const links = await openableLinks(
      deps.db,
      access,
      group.flatMap((claim) => [...linkedIds(claim.row.data)]),
    )
    views.set(key, {
      access,
      subjects: await visibleAmong(deps.db, access.visibility, subjects),
      links,
    })
  }
  return views
}

/** The key of a claim's endpoint in `viewsOfOwners`. */
export function endpointKey(claim: ClaimedDelivery): string {
  return `${claim.workspaceId}\u0000${claim.endpointId}`
}

/**
 * Makes one claimed attempt: checks that the endpoint was live when claimed and that its owner may
 * still open the subject, shows the owner only the links it may open, signs with the secrets
 * valid now, sends through the guarded client and records the attempt and the new state.
 */
export async function deliverOne(
  context: SendContext,
  claimed: ClaimedDelivery,
  view: OwnerView,
): Promise<void> {
  const { deps } = context
  const { row } = claimed
  // Claims count attempts before sending, so a delivery whose sending keeps crashing its
  // dispatcher (and losing its lease) still runs out of attempts instead of looping forever.
  if (claimed.runAttempts > MAX_ATTEMPTS)
    return settle(context, claimed, 'failed', 'attempts_exhausted')
  // Stopped since it was queued (by its owner, or with the credential it is bound to): not sent.
  if (row.deleted_at !== null || row.status !== 'active') {
    const why = row.deleted_at
      ? 'endpoint_deleted'
      : skipReason(row.disabled_reason ?? 'disabled_by_owner')
    return settle(context, claimed, 'skipped', why)
  }
  const { access } = view
  // A test event is about the endpoint itself, which its owner may always open.
  const test = row.type === TEST_EVENT_TYPE
  if (
    !access ||
    (!test && (!scopeReads(access, row.subject_type) || !view.subjects.has(row.subject_id)))
  )
    return settle(context, claimed, 'skipped', 'not_visible')
  const startedAt = deps.clock.now()
  const secrets = openEndpointSecrets(deps, row, startedAt)
  const request = buildDeliveryRequest({
    event: {
      id: claimed.eventId,
      type: row.type,
      workspaceId: row.workspace_id,
      createdAt: row.event_at,
    },
    data: redactLinks(row.data, view.links),
    deliveryId: claimed.id,
    attempt: claimed.attempt,
    sentAt: Math.floor(startedAt.getTime() / 1000),
    secret: secrets.current,
    previousSecret: secrets.previous,
  })
  const destination = checkEndpointUrl(row.url, {
    allowHttpLoopback: deps.config.webhooksAllowHttpLoopback,
  })
  let sentHeaders = request.headers
  const result: SendResult = destination.ok
    ? await inAttemptSpan(
        {
          traceParent: row.trace_parent,
          url: destination.url,
          eventType: row.type,
          deliveryId: claimed.id,
          attempt: claimed.attempt,
        },
        (traceHeaders) => {
          sentHeaders = { ...request.headers, ...traceHeaders }
          return sendDelivery(
            context.agent,
            destination.url,
            sentHeaders,
            request.body,
            context.timeoutMs,
          )
        },
      )
    : {
        status: null,
        responseBody: null,
        retryAfter: null,
        errorKind: DESTINATION_NOT_ALLOWED,
        durationMs: 0,
      }
  const now = deps.clock.now()
  const outcome = outcomeOf(result.status)
  // Only requests that went out are timed: a refused destination took no time of a receiver's.
  if (destination.ok)
    deps.metrics.webhookAttemptSeconds.observe({ outcome }, result.durationMs / 1000)
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
  const status = outcome === 'succeeded' ? 'succeeded' : delay === null ? 'failed' : 'retrying'
  deps.metrics.webhookDeliveries.inc({ result: status })
  await context.acks.record({
    claimed,
    status,
    lastError: result.errorKind,
    nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay),
    now,
    attempt: {
      trigger: claimed.attempt > claimed.runAttempts ? 'replay' : 'auto',
      startedAt,
      durationMs: result.durationMs,
      url: row.url,
      requestHeaders: sentHeaders,
      requestBody: request.body,
      responseStatus: result.status,
      responseBody: result.responseBody,
      errorKind: result.errorKind,
    },
    outcome,
  })
}

// Ends this lease with a final state and no attempt; a lease lost to another dispatcher changes
// nothing.
function settle(
  context: SendContext,
  claimed: ClaimedDelivery,
  status: DeliveryStatus,
  error: string,
): Promise<void> {
  context.deps.metrics.webhookDeliveries.inc({ result: status })
  return context.acks.record({
    claimed,
    status,
    lastError: error,
    nextAttemptAt: null,
    now: context.deps.clock.now(),
    attempt: null,
    outcome: null,
  })
}
