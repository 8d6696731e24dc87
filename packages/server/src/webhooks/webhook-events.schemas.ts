import Type, { type TSchema } from 'typebox'
import { Timestamp } from '../api/schemas.ts'
import { kindsWith } from '../catalogue/catalogue.ts'
import { EVENT_TYPES, type EventType } from '../catalogue/verbs.ts'
import { TEST_EVENT_TYPE } from './test-event.ts'

const DeliveryInfo = Type.Object(
  {
    id: Type.String({ description: 'The delivery (dlv_…): one per endpoint and event.' }),
    attempt: Type.Integer({ minimum: 1, description: 'Counts from 1; a replay starts again.' }),
    sent_at: Type.Integer({
      description: 'Unix seconds when this attempt was signed; reject bodies over 5 minutes old.',
    }),
  },
  { title: 'WebhookDeliveryInfo' },
)

// The envelope every delivery's body has (docs/webhooks.md, "The request").
function eventSchema<T extends TSchema>(type: string, title: string, object: T, about: string) {
  return Type.Object(
    {
      id: Type.String({ description: 'The event (evt_…): the same on every retry; dedupe on it.' }),
      type: Type.Literal(type),
      created_at: Timestamp,
      workspace_id: Type.String(),
      delivery: DeliveryInfo,
      data: Type.Object({
        object,
        previous_attributes: Type.Optional(
          Type.Record(Type.String(), Type.Unknown(), {
            description:
              "On an update: the earlier values of the object's fields that changed. A link the " +
              'endpoint owner may not open is null, as in the object.',
          }),
        ),
      }),
    },
    { title, description: about },
  )
}

const TestObject = Type.Object({
  id: Type.String({ description: 'The endpoint (whk_…) the test was sent to.' }),
  type: Type.Literal('webhook'),
  url: Type.String(),
  test: Type.Literal(true),
})

/** How a kind describes one of its outbox events: the body's name, its object, what it means. */
export interface WebhookEvent {
  readonly title: string
  readonly object: TSchema
  readonly about: string
}

declare module '../catalogue/kind.ts' {
  interface KindParts {
    /** The webhook body of each of its outbox events, by event type. */
    webhookEvents: Readonly<Partial<Record<EventType, WebhookEvent>>>
  }
}

/**
 * The body of each event type a webhook endpoint receives, for the OpenAPI `webhooks` section:
 * the kinds' events in the order of EVENT_TYPES, then the test event. Read once the kinds'
 * parts are defined.
 */
export function webhookEventSchemas(): Record<string, TSchema> {
  const described = new Map(
    kindsWith('webhookEvents').flatMap((kind) => Object.entries(kind.webhookEvents)),
  )
  const schemas: Record<string, TSchema> = {}
  for (const type of EVENT_TYPES) {
    const event = described.get(type)
    if (!event) throw new Error(`no kind describes the event ${type}`)
    schemas[type] = eventSchema(type, event.title, event.object, event.about)
  }
  schemas[TEST_EVENT_TYPE] = eventSchema(
    TEST_EVENT_TYPE,
    'WebhookTestEvent',
    TestObject,
    'Sent to one endpoint by `POST /v1/webhooks/{id}/test`; never fanned out.',
  )
  return schemas
}
