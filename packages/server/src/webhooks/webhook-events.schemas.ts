import Type, { type TSchema } from 'typebox'
import { Timestamp } from '../api/schemas.ts'
import { CanvasRecord } from '../graph/canvases/canvases.schemas.ts'
import { CommentRecord } from '../graph/comments/comments.schemas.ts'
import { CheckinCreated } from '../graph/okrs/okr-parts.schemas.ts'
import { TaskRecord } from '../graph/tasks/tasks.schemas.ts'
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
      data: Type.Object({ object }),
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

/** The body of each event type a webhook endpoint receives, for the OpenAPI `webhooks` section. */
export const WEBHOOK_EVENT_SCHEMAS = {
  'task.created': eventSchema('task.created', 'TaskCreatedEvent', TaskRecord, 'A task was made.'),
  'task.completed': eventSchema(
    'task.completed',
    'TaskCompletedEvent',
    TaskRecord,
    'A task was marked done; the record has `completed_at`.',
  ),
  'comment.created': eventSchema(
    'comment.created',
    'CommentCreatedEvent',
    CommentRecord,
    'A comment or reply was added.',
  ),
  'canvas.updated': eventSchema(
    'canvas.updated',
    'CanvasUpdatedEvent',
    CanvasRecord,
    "A canvas's metadata (title, summary, project, links) changed.",
  ),
  'okr.checkin': eventSchema(
    'okr.checkin',
    'OkrCheckinEvent',
    CheckinCreated,
    'A check-in was logged on a key result; with the key result and the objective progress.',
  ),
  [TEST_EVENT_TYPE]: eventSchema(
    TEST_EVENT_TYPE,
    'WebhookTestEvent',
    TestObject,
    'Sent to one endpoint by `POST /v1/webhooks/{id}/test`; never fanned out.',
  ),
} as const
