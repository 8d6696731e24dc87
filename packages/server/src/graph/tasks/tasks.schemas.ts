import Type from 'typebox'
import { DateOnly, Nullable, PagingQuery, RecordBase, Timestamp } from '../../http/schemas.ts'

/** Task statuses. */
export const TASK_STATUSES = ['todo', 'in_progress', 'blocked', 'done'] as const

/** The task record (contract §6). Link fields are null when they name something hidden. */
export const TaskRecord = Type.Object({
  ...RecordBase,
  type: Type.Literal('task'),
  title: Type.String(),
  description: Type.String(),
  status: Type.Enum([...TASK_STATUSES]),
  due: Nullable(DateOnly),
  assignee_id: Nullable(Type.String()),
  parent_id: Nullable(Type.String()),
  project_id: Nullable(Type.String()),
  canvas_id: Nullable(Type.String()),
  creator_id: Nullable(Type.String()),
  completed_at: Nullable(Timestamp),
})

/** Filters of `GET /v1/tasks`. */
export const ListTasksQuery = Type.Object(
  {
    ...PagingQuery,
    project_id: Type.Optional(
      Type.String({ description: 'Only tasks of this project (404 if you cannot open it).' }),
    ),
    assignee_id: Type.Optional(
      Type.String({
        description: 'Only tasks assigned to this person (404 if you cannot see them).',
      }),
    ),
    status: Type.Optional(
      Type.Array(Type.Enum([...TASK_STATUSES]), {
        description: 'Only these statuses (repeat for several).',
      }),
    ),
    due_before: Type.Optional(
      Type.String({ format: 'date', description: 'Only tasks due on or before this date.' }),
    ),
    due_after: Type.Optional(
      Type.String({ format: 'date', description: 'Only tasks due on or after this date.' }),
    ),
  },
  { additionalProperties: false },
)
