import Type from 'typebox'
import { Nullable, PagingQuery, RecordBase } from '../api/schemas.ts'
import { ACTIVITY_VERBS } from '../catalogue/verbs.ts'

/**
 * The fields a change changed (docs/api.md, "Field changes"): each with its value before and
 * after, and for a person's field the names of the people the reader may see.
 */
export const FieldChanges = Type.Record(
  Type.String(),
  Type.Object(
    {
      from: Type.Unknown(),
      to: Type.Unknown(),
      from_name: Type.Optional(Nullable(Type.String())),
      to_name: Type.Optional(Nullable(Type.String())),
    },
    { title: 'FieldChange' },
  ),
  {
    description:
      'Fields of the subject that changed, with their values before and after. A person the ' +
      'caller may not see is null; `from_name` and `to_name` name people where the token reads them.',
  },
)

/**
 * The activity record (docs/api.md, "Records"). Titles come from the current subject, never a
 * stored copy.
 */
export const ActivityRecord = Type.Object(
  {
    ...RecordBase,
    type: Type.Literal('activity'),
    verb: Type.Enum([...ACTIVITY_VERBS]),
    actor_id: Nullable(Type.String()),
    subject_id: Type.String(),
    subject_type: Type.String(),
    subject_title: Nullable(
      Type.String({
        description:
          "The subject's current title; null when the token may not read the subject's type.",
      }),
    ),
    object_id: Nullable(
      Type.String({
        description: 'A record inside the subject, such as the check-in of okr.checkin.',
      }),
    ),
    project_id: Nullable(Type.String()),
    changes: FieldChanges,
  },
  { title: 'ActivityEntry' },
)

const ActivityFilterFields = {
  ...PagingQuery,
  resource_id: Type.Optional(
    Type.String({
      description: 'Only entries about this resource: as their subject, or mentioned.',
    }),
  ),
  actor_id: Type.Optional(
    Type.String({ description: 'Only entries by this person or integration.' }),
  ),
  since: Type.Optional(
    Type.String({ format: 'date-time', description: 'Only entries at or after this time.' }),
  ),
  verbs: Type.Optional(
    Type.Array(Type.Enum([...ACTIVITY_VERBS]), {
      description: 'Only these verbs, such as task.completed (repeat for several).',
    }),
  ),
}

/** Filters of `GET /v1/activity`. */
export const ListActivityQuery = Type.Object(
  {
    ...ActivityFilterFields,
    project_id: Type.Optional(Type.String({ description: 'Only entries of this project.' })),
  },
  { additionalProperties: false },
)

/** Filters of `GET /v1/projects/:id/activity`. */
export const ProjectActivityQuery = Type.Object(ActivityFilterFields, {
  additionalProperties: false,
})
