import Type, { type Static, type TObject, type TSchema } from 'typebox'
import { Nullable } from '../../api/schemas.ts'
import { createComment } from '../../graph/comments/comments.commands.ts'
import { CreateCommentBody } from '../../graph/comments/comments.schemas.ts'
import { createCheckin } from '../../graph/okrs/checkins.commands.ts'
import { CreateCheckinBody } from '../../graph/okrs/okr-parts.schemas.ts'
import { createTask, updateTask } from '../../graph/tasks/tasks.commands.ts'
import { CreateTaskBody, UpdateTaskBody } from '../../graph/tasks/tasks.schemas.ts'
import { readableNames } from '../../summaries/summary-queries.ts'
import { data, inline, link } from '../markdown.ts'
import type { McpSession } from '../mcp-session.ts'
import { mcpWrite } from '../mcp-write.ts'
import { ADDITIVE, IDEMPOTENT_WRITE, type ToolDefinition } from '../tool-definition.ts'
import { DryRun, described, IdempotencyKey, Ref, terse } from './tool-schemas.ts'

type Keyed<T> = T & { idempotency_key?: string; dry_run?: boolean }
type UpdateTaskInput = Static<typeof UpdateTaskBody>

/** A `/v1` write body as a tool's arguments: terse, with the retry key beside its fields. */
function keyed(body: TObject): TSchema {
  const input = terse(body)
  return {
    ...input,
    properties: { ...input.properties, idempotency_key: IdempotencyKey, dry_run: DryRun },
  }
}

/** Splits the retry key and the dry-run flag off a tool's arguments: the rest is the input. */
function withoutKey<T extends { idempotency_key?: string; dry_run?: boolean }>(args: T) {
  const { idempotency_key, dry_run, ...input } = args
  return { idempotencyKey: idempotency_key, dryRun: dry_run === true, input }
}

// What a write tool answers. A dry run has no id or url yet, and adds `dry_run`, `activity` and
// `events` (left undeclared: the definitions are read on every turn, and must stay short).
const Written = Type.Object({
  ...Ref.properties,
  id: Nullable(Type.String()),
  url: Nullable(Type.String()),
  replayed: Type.Boolean(),
})

const replayNote = (replayed: boolean) =>
  replayed ? ' (a retry: this idempotency key already did it; nothing was written twice)' : ''

/** `create_task`: `POST /v1/tasks` as a tool. */
export const createTaskTool: ToolDefinition<Keyed<Static<typeof CreateTaskBody>>> = {
  name: 'create_task',
  title: 'Create a task',
  description:
    'A subtask takes its parent’s project; with no project, only you and the assignee can open it.',
  anyOfScopes: ['task:write'],
  annotations: ADDITIVE,
  input: described(keyed(CreateTaskBody), {
    title: 'One line.',
    description: 'Markdown.',
    project_id: 'Its project.',
    parent_id: 'Makes it a subtask.',
    canvas_id: 'Canvas it is planned on.',
    assignee_id: 'Person id, or me.',
    due: 'Due date.',
    status: 'At first.',
  }),
  output: Written,
  run(session, args) {
    const { idempotencyKey, dryRun, input } = withoutKey(args)
    return mcpWrite(session, {
      tool: 'create_task',
      input,
      idempotencyKey,
      dryRun,
      command: async (w) => ({ status: 201, body: await createTask(w, input) }),
      render: async (task, replayed) => ({
        markdown: `Created task ${link(String(task.title), String(task.url))} (${task.id})${await placeOf(session, task)}, ${await taskState(session, task)}${replayNote(replayed)}.`,
        structured: pick(task, ['id', 'type', 'title', 'url', 'status', 'due'], replayed),
      }),
    })
  },
}

/**
 * `update_task`: `PATCH /v1/tasks/:id` as a tool: reassign, reschedule, rename, describe,
 * change the status, complete (`done`) or reopen. A change to nothing is a no-op.
 */
export const updateTaskTool: ToolDefinition<Keyed<{ task_id: string } & UpdateTaskInput>> = {
  name: 'update_task',
  title: 'Update a task',
  description: 'Change only the given fields of a task: reassign, reschedule, complete, reopen.',
  anyOfScopes: ['task:write'],
  annotations: IDEMPOTENT_WRITE,
  input: (() => {
    const fields = keyed(UpdateTaskBody) as TObject
    return described(
      {
        ...fields,
        properties: { task_id: Type.String({ maxLength: 100 }), ...fields.properties },
        required: ['task_id'],
        minProperties: 2,
      },
      {
        task_id: 'The task.',
        title: 'One line.',
        description: 'Markdown.',
        status: 'done completes it; another reopens it.',
        assignee_id: 'Person id or me; null unassigns.',
        due: 'YYYY-MM-DD; null clears.',
      },
    )
  })(),
  output: Written,
  run(session, args) {
    const { idempotencyKey, dryRun, input } = withoutKey(args)
    const { task_id: taskId, ...fields } = input
    return mcpWrite(session, {
      tool: 'update_task',
      input,
      idempotencyKey,
      dryRun,
      command: async (w) => ({ status: 200, body: await updateTask(w, taskId, fields) }),
      render: async (task, replayed) => ({
        markdown: `Task ${link(String(task.title), String(task.url))} (${task.id}) is now ${await taskState(session, task)}${replayNote(replayed)}.`,
        structured: pick(
          task,
          ['id', 'type', 'title', 'url', 'status', 'assignee_id', 'due'],
          replayed,
        ),
      }),
    })
  },
}

// A task's status, assignee and due date, as a sentence's end: the assignee by name where the
// caller may read it (the confirmation an agent relays says who, not an id), else by id.
async function taskState(session: McpSession, task: Record<string, unknown>): Promise<string> {
  const id = typeof task.assignee_id === 'string' ? task.assignee_id : null
  const name = id ? (await readableNames(session.deps.db, session.caller, [id])).get(id) : null
  const assignee = id ? `assigned to ${name ? `${data(name, 120)} (${id})` : id}` : 'unassigned'
  return `${task.status}, ${assignee}${task.due ? `, due ${task.due}` : ', no due date'}`
}

// Where a new task is: ` in “Project”` when it has a project the caller may read, else nothing.
async function placeOf(session: McpSession, task: Record<string, unknown>): Promise<string> {
  const id = typeof task.project_id === 'string' ? task.project_id : null
  const name = id ? (await readableNames(session.deps.db, session.caller, [id])).get(id) : null
  return name ? ` in ${data(name, 120)}` : ''
}

/** `add_comment`: `POST /v1/comments` as a tool. */
export const addCommentTool: ToolDefinition<Keyed<Static<typeof CreateCommentBody>>> = {
  name: 'add_comment',
  title: 'Add a comment',
  description: 'Comment on a project, canvas, task or OKR you can open.',
  anyOfScopes: ['comment:write'],
  annotations: ADDITIVE,
  input: described(keyed(CreateCommentBody), {
    resource_id: 'What to comment on.',
    body: 'Markdown.',
    parent_id: 'Comment to reply to.',
  }),
  output: Written,
  run(session, args) {
    const { idempotencyKey, dryRun, input } = withoutKey(args)
    return mcpWrite(session, {
      tool: 'add_comment',
      input,
      idempotencyKey,
      dryRun,
      command: async (w) => ({ status: 201, body: await createComment(w, input) }),
      render: async (comment, replayed) => ({
        markdown: `Added comment ${link(String(comment.id), String(comment.url))} on ${await subjectOf(session, String(comment.resource_id))}${replayNote(replayed)}: ${data(String(comment.body))}`,
        structured: {
          ...pick(comment, ['id', 'type', 'url', 'resource_id'], replayed),
          title: `Comment on ${comment.resource_id}`,
        },
      }),
    })
  },
}

// What a comment is on: its title and id where the caller's token reads its kind, else its id.
async function subjectOf(session: McpSession, id: string): Promise<string> {
  const name = (await readableNames(session.deps.db, session.caller, [id])).get(id)
  return name ? `${data(name, 120)} (${id})` : id
}

/** `okr_checkin`: `POST /v1/okr/checkins` as a tool. */
export const okrCheckinTool: ToolDefinition<Keyed<Static<typeof CreateCheckinBody>>> = {
  name: 'okr_checkin',
  title: 'Log an OKR check-in',
  description: "Record a key result's new current value.",
  anyOfScopes: ['okr:checkin'],
  annotations: ADDITIVE,
  input: described(keyed(CreateCheckinBody), {
    key_result_id: 'The key result.',
    value: 'Its current value now.',
    confidence: '0 to 1.',
    note: 'Why, in words.',
  }),
  output: Written,
  run(session, args) {
    const { idempotencyKey, dryRun, input } = withoutKey(args)
    return mcpWrite(session, {
      tool: 'okr_checkin',
      input,
      idempotencyKey,
      dryRun,
      command: async (w) => ({ status: 201, body: await createCheckin(w, input) }),
      render: (checkin, replayed) => {
        const kr = checkin.key_result as Record<string, unknown>
        const progress = Number(kr.progress)
        return {
          markdown: `Checked in ${checkin.value} ${inline(String(kr.unit))} on key result ${link(String(kr.title), String(kr.url))} (target ${kr.target}; ${Math.round(progress * 100)} % of the way)${replayNote(replayed)}.`,
          structured: {
            ...pick(checkin, ['id', 'type', 'url', 'value'], replayed),
            title: inline(String(kr.title)),
            progress,
          },
        }
      },
    })
  },
}

// The named fields of a record (its title by the rule for people's text), and whether the
// answer is a replay.
function pick(
  record: Record<string, unknown>,
  fields: string[],
  replayed: boolean,
): Record<string, unknown> {
  const value = (f: string) => (f === 'title' ? inline(String(record[f])) : (record[f] ?? null))
  return { ...Object.fromEntries(fields.map((f) => [f, value(f)])), replayed }
}
