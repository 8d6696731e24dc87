import Type from 'typebox'
import { DateOnly, Nullable, PagingQuery, RecordBase, Timestamp } from '../../api/schemas.ts'

/** Every status a task can have. */
export const TASK_STATUSES = ['todo', 'in_progress', 'blocked', 'done'] as const

/**
 * The task record (docs/api.md, "Records"). Link fields are null when they name something hidden.
 */
export const TaskRecord = Type.Object(
  {
    ...RecordBase,
    type: Type.Literal('task'),
    title: Type.String(),
    description: Type.String(),
    status: Type.Enum([...TASK_STATUSES]),
    due: Nullable(DateOnly),
    overdue: Type.Boolean({
      description:
        "Due before today (UTC) and not done, as `overdue` reads it; worked out when the record is read (in a write's answer and a webhook event, at the write).",
    }),
    assignee_id: Nullable(Type.String()),
    parent_id: Nullable(Type.String()),
    project_id: Nullable(Type.String()),
    canvas_id: Nullable(Type.String()),
    creator_id: Nullable(Type.String()),
    completed_at: Nullable(Timestamp),
  },
  { title: 'Task' },
)

/** Filters of `GET /v1/tasks`. */
export const ListTasksQuery = Type.Object(
  {
    ...PagingQuery,
    project_id: Type.Optional(
      Type.String({ description: 'Only tasks of this project (404 if you cannot open it).' }),
    ),
    assignee_id: Type.Optional(
      Type.String({
        description: 'Only tasks assigned to this person, or `me` (404 if you cannot see them).',
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

const Reference = (description: string) =>
  Type.Optional(Nullable(Type.String({ maxLength: 100, description })))

/** The body of `POST /v1/tasks` (docs/api.md, "Writes"). */
export const CreateTaskBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 500 }),
    description: Type.Optional(Type.String({ maxLength: 10_000, description: 'Markdown.' })),
    project_id: Reference(
      "The project (a subtask's is its parent's; give it or leave it out). Without a project and a parent, only you and the assignee can open the task.",
    ),
    parent_id: Reference('The task this one is a subtask of.'),
    canvas_id: Reference("A canvas the task comes from; it must be in the task's project."),
    assignee_id: Reference("A person who can open the task's project, or `me`."),
    due: Type.Optional(Nullable(DateOnly)),
    status: Type.Optional(Type.Enum([...TASK_STATUSES], { default: 'todo' })),
  },
  {
    title: 'CreateTaskRequest',
    examples: [{ title: 'Draft the launch checklist', project_id: 'prj_01JD3', due: '2026-12-01' }],
    additionalProperties: false,
  },
)

/**
 * The body of `PATCH /v1/tasks/:id` (docs/api.md, "Writes"): the fields to change. `null` clears
 * the assignee or the due date; a status other than `done` reopens a done task.
 */
export const UpdateTaskBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    description: Type.Optional(Type.String({ maxLength: 10_000, description: 'Markdown.' })),
    status: Type.Optional(
      Type.Enum([...TASK_STATUSES], {
        description: '`done` completes the task; another status reopens a done one.',
      }),
    ),
    assignee_id: Reference("A person who can open the task's project, `me`, or null to unassign."),
    due: Type.Optional(Nullable(DateOnly)),
  },
  {
    title: 'UpdateTaskRequest',
    examples: [{ assignee_id: 'usr_01JD3', due: '2026-12-08' }, { status: 'todo' }],
    additionalProperties: false,
    minProperties: 1,
  },
)
