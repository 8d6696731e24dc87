import type { Static } from 'typebox'
import type { EventType } from '../catalogue/verbs.ts'
import type { TEST_EVENT_TYPE } from './test-event.ts'
import type { AttemptRow, DeliveryRow, EndpointRow } from './webhooks.queries.ts'
import type {
  AttemptDetail,
  AttemptSummary,
  DeliveryRecord,
  WebhookRecord,
} from './webhooks.schemas.ts'

/**
 * An endpoint as the API shows it (never its secrets). Its project filter names the projects its
 * owner may open now (`visible_project_ids`, read with the row); a row just written was checked
 * by its writer.
 */
export function presentEndpoint(
  row: EndpointRow & { visible_project_ids?: string[] | null },
  now: Date,
): Static<typeof WebhookRecord> {
  const overlap = row.previous_expires_at !== null && row.previous_expires_at > now
  return {
    id: row.id,
    type: 'webhook',
    url: row.url,
    events: row.event_types as EventType[],
    project_ids: row.visible_project_ids ?? row.project_ids,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    owner_id: row.owner_id,
    previous_secret_expires_at: overlap ? (row.previous_expires_at?.toISOString() ?? null) : null,
    last_success_at: row.last_success_at?.toISOString() ?? null,
    failing_since: row.failing_since?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** What an endpoint's audit entries record of it. */
export function auditedEndpoint(row: EndpointRow): Record<string, unknown> {
  return {
    url: row.url,
    events: row.event_types,
    project_ids: row.project_ids,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
  }
}

function summary(row: AttemptRow): Static<typeof AttemptSummary> {
  return {
    attempt: row.attempt,
    at: row.started_at.toISOString(),
    status_code: row.response_status,
    duration_ms: row.duration_ms,
    error: row.error_kind,
  }
}

/** A delivery with a summary of each attempt. `in_flight` is shown as `pending`. */
export function presentDelivery(
  row: DeliveryRow,
  attempts: readonly AttemptRow[],
): Static<typeof DeliveryRecord> {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type as EventType | typeof TEST_EVENT_TYPE,
    status: row.status === 'in_flight' ? 'pending' : row.status,
    attempts: attempts.map(summary),
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
  }
}

/** An attempt with the exact request sent and the start of the answer. */
export function presentAttemptDetail(row: AttemptRow): Static<typeof AttemptDetail> {
  return {
    ...summary(row),
    trigger: row.trigger,
    url: row.url,
    request: { headers: row.request_headers, body: row.request_body },
    response:
      row.response_status === null
        ? null
        : { status: row.response_status, body: row.response_body ?? '' },
  }
}
