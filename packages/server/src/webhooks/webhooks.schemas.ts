import Type from 'typebox'
import { Nullable, PagingQuery, Timestamp } from '../api/schemas.ts'
import { EVENT_TYPES } from '../catalogue/verbs.ts'
import { ENDPOINT_DISABLED_REASONS } from '../db/tables/webhook.table.ts'
import { TEST_EVENT_TYPE } from './test-event.ts'

const EventType = Type.Enum([...EVENT_TYPES])

// The projects an endpoint hears of, by id or name: like Linear's `teamIds` on a webhook.
const ProjectFilter = Type.Array(Type.String({ maxLength: 200 }), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description:
    'Only events about these projects (by id or name) and what is in them: their tasks, canvases, objectives and comments. Events about teams have no project and are left out.',
})

/** A webhook endpoint, without its secret. */
export const WebhookRecord = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('webhook'),
    url: Type.String(),
    events: Type.Array(EventType),
    project_ids: Nullable(
      Type.Array(Type.String(), {
        description:
          'Only events about these projects and what is in them (of those you can open); null: every event you can open.',
      }),
    ),
    description: Nullable(Type.String()),
    status: Type.Enum(['active', 'disabled']),
    disabled_reason: Nullable(
      Type.Enum([...ENDPOINT_DISABLED_REASONS], {
        description:
          'Why the endpoint is disabled: its owner turned it off, the receiver answered 410 Gone, no delivery succeeded for 5 days, or the credential it is bound to was revoked or expired.',
      }),
    ),
    owner_id: Type.String({
      description: 'The person or integration whose access filters what the endpoint receives.',
    }),
    /** While a rotation's overlap lasts, the previous secret also signs until this time. */
    previous_secret_expires_at: Nullable(Timestamp),
    last_success_at: Nullable(Timestamp),
    /** The first failure since the last success: five days of this disables the endpoint. */
    failing_since: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'WebhookEndpoint' },
)

/** A new endpoint: the record and its signing secret, shown this once. */
export const CreatedWebhook = Type.Object(
  {
    ...WebhookRecord.properties,
    secret: Type.String({
      description: 'The signing secret (`whsec_…`). Shown only here and when rotated.',
    }),
  },
  { title: 'CreatedWebhookEndpoint' },
)

/** `POST /v1/webhooks`. */
export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'An https URL.' }),
    events: Type.Optional(
      Type.Array(EventType, {
        minItems: 1,
        maxItems: EVENT_TYPES.length,
        uniqueItems: true,
        description: 'Default: all of them.',
      }),
    ),
    project_ids: Type.Optional(ProjectFilter),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  {
    title: 'CreateWebhookRequest',
    examples: [
      { url: 'https://hooks.example.com/workgraph', events: ['task.created', 'task.completed'] },
    ],
    additionalProperties: false,
  },
)

/** `PATCH /v1/webhooks/:id`: any of these; `status: "active"` re-enables a disabled endpoint. */
export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    events: Type.Optional(
      Type.Array(EventType, { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true }),
    ),
    project_ids: Type.Optional(Nullable(ProjectFilter)),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    status: Type.Optional(Type.Enum(['active', 'disabled'])),
  },
  { title: 'UpdateWebhookRequest', additionalProperties: false, minProperties: 1 },
)

/** `POST /v1/webhooks/:id/rotate-secret`. */
export const RotateSecretBody = Type.Object(
  {
    grace_period_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604_800,
        default: 86_400,
        description: 'How long the previous secret keeps signing beside the new one (0..7 days).',
      }),
    ),
    force: Type.Optional(
      Type.Boolean({
        description: 'Rotate even while a previous secret is still live; that one stops at once.',
      }),
    ),
  },
  { title: 'RotateWebhookSecretRequest', additionalProperties: false },
)

/** The answer to a rotation: the new secret, shown this once. */
export const RotatedSecret = Type.Object(
  {
    secret: Type.String(),
    previous_expires_at: Nullable(Timestamp),
  },
  { title: 'RotatedWebhookSecret' },
)

/** A deleted endpoint. */
export const DeletedWebhook = Type.Object(
  { id: Type.String(), deleted: Type.Literal(true) },
  { title: 'DeletedWebhookEndpoint' },
)

/** One attempt, as the deliveries list shows it. */
export const AttemptSummary = Type.Object(
  {
    attempt: Type.Integer(),
    at: Timestamp,
    status_code: Nullable(Type.Integer()),
    duration_ms: Type.Integer(),
    error: Nullable(
      Type.String({
        description:
          'timeout, dns_error, connection_refused, tls_error, http_status, redirect, destination_not_allowed, …',
      }),
    ),
  },
  { title: 'DeliveryAttempt' },
)

/** One event for one endpoint. */
export const DeliveryRecord = Type.Object(
  {
    id: Type.String(),
    event_id: Type.String(),
    event_type: Type.Enum([...EVENT_TYPES, TEST_EVENT_TYPE]),
    status: Type.Enum(['pending', 'succeeded', 'retrying', 'failed', 'skipped']),
    attempts: Type.Array(AttemptSummary),
    next_attempt_at: Nullable(Timestamp),
    last_error: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { title: 'WebhookDelivery' },
)

/** One attempt with the exact request sent and the start of the answer. */
export const AttemptDetail = Type.Object(
  {
    ...AttemptSummary.properties,
    trigger: Type.Enum(['auto', 'replay']),
    url: Type.String(),
    request: Type.Object({
      headers: Type.Record(Type.String(), Type.String()),
      body: Type.String({ description: 'The exact bytes sent (UTF-8).' }),
    }),
    response: Nullable(
      Type.Object({
        status: Type.Integer(),
        body: Type.String({ description: 'The first 64 KiB of the response body.' }),
      }),
    ),
  },
  { title: 'DeliveryAttemptDetail' },
)

/** A delivery with its full attempt log. */
export const DeliveryDetail = Type.Object(
  {
    ...DeliveryRecord.properties,
    attempts: Type.Array(AttemptDetail),
  },
  { title: 'WebhookDeliveryDetail' },
)

/** Path parameters of one delivery. */
export const DeliveryParams = Type.Object({ id: Type.String(), delivery_id: Type.String() })

/** `GET /v1/webhooks`. */
export const ListWebhooksQuery = Type.Object({ ...PagingQuery }, { additionalProperties: false })

/** `GET /v1/webhooks/:id/deliveries`. */
export const ListDeliveriesQuery = Type.Object(
  {
    ...PagingQuery,
    status: Type.Optional(Type.Enum(['pending', 'succeeded', 'retrying', 'failed', 'skipped'])),
  },
  { additionalProperties: false },
)

/** `POST /v1/webhooks/:id/recover`. */
export const RecoverBody = Type.Object(
  {
    since: Timestamp,
  },
  { title: 'RecoverDeliveriesRequest', additionalProperties: false },
)

/** How many deliveries a recover queued again. */
export const Recovered = Type.Object({ replayed: Type.Integer() }, { title: 'RecoveredDeliveries' })
