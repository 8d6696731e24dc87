import Type from 'typebox'
import { FieldChanges } from '../../activity/activity.schemas.ts'
import { Timestamp } from '../../api/schemas.ts'
import { allKinds } from '../../catalogue/catalogue.ts'
import { ACTIVITY_VERBS } from '../../catalogue/verbs.ts'

/** Resource types whose changes the feed carries: the kinds with activity verbs. */
export const CHANGE_KINDS: readonly string[] = allKinds()
  .filter((kind) =>
    Object.values(kind.verbs ?? {}).some((verb) => verb === 'event' || verb === 'activity'),
  )
  .map((kind) => kind.name)

/** One change of the feed (docs/changes.md). */
export const ChangeRecord = Type.Object(
  {
    id: Type.String({ description: 'The id of the activity entry that recorded the change.' }),
    event: Type.Enum([...ACTIVITY_VERBS], { description: 'What happened, such as task.created.' }),
    resource_type: Type.Enum([...CHANGE_KINDS]),
    resource_id: Type.String(),
    occurred_at: Timestamp,
    changes: FieldChanges,
  },
  { title: 'Change' },
)

/** A page of the feed: its cursor is never null, since a feed has no last page. */
export const ChangePage = Type.Object(
  {
    data: Type.Array(ChangeRecord),
    next_cursor: Type.String({
      description:
        'Pass as `cursor` to continue after this page; an empty page keeps the place too.',
    }),
  },
  { title: 'ChangePage' },
)

/** Query of `GET /v1/changes`. */
export const ListChangesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 200,
        default: 50,
        description: 'Changes per page (1–200).',
      }),
    ),
    cursor: Type.Optional(
      Type.String({ maxLength: 2000, description: 'The next_cursor of the previous page.' }),
    ),
    from: Type.Optional(
      Type.Literal('start', {
        description: 'Without a cursor: begin at the oldest retained change instead of now.',
      }),
    ),
    types: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Only these events, comma-separated, such as task.created,comment.created.',
      }),
    ),
    project_id: Type.Optional(
      Type.String({ description: 'Only changes of this project and of what belongs to it.' }),
    ),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 30,
        default: 0,
        description: 'Seconds to wait for a change when there is none yet (long polling).',
      }),
    ),
  },
  { additionalProperties: false },
)
