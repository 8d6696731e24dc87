import { sql } from 'kysely'
import type { Static } from 'typebox'
import { syncResourceIndex } from '../../access/resource-index.ts'
import { canOpen } from '../../access/visibility.ts'
import { namedReference } from '../../api/named-reference.ts'
import { notFound } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { idKind, newId } from '../../lib/ids.ts'
import { requireProjectInFence, requireText, ruleBroken } from '../../writes/business-rule.ts'
import { personCanOpen } from '../../writes/person-can-open.ts'
import {
  INSERTED_ROW,
  insertRecorded,
  recordChange,
  type WriteContext,
} from '../../writes/write-context.ts'
import { presentTask } from './tasks.present.ts'
import { listTasks, type TaskRow, taskLinksVisible } from './tasks.queries.ts'
import type { CreateTaskBody, TaskRecord, UpdateTaskBody } from './tasks.schemas.ts'

type Task = Static<typeof TaskRecord>

/**
 * Creates a task (docs/api.md, "Writes"). Every id in the body must name something the caller may
 * open (else the one 404, at that field); a subtask lives in its parent's project, so its parent
 * counts as open only when that project is too; a canvas must be in the task's project; an
 * assignee must be able to open that project. The creator is the actor.
 */
export async function createTask(
  w: WriteContext,
  body: Static<typeof CreateTaskBody>,
): Promise<Task> {
  const ws = w.principal.workspaceId
  const input = {
    ...body,
    assignee_id: await namedReference(w.trx, w, 'person', body.assignee_id, '/assignee_id'),
    project_id: await namedReference(w.trx, w, 'project', body.project_id, '/project_id'),
  }
  requireText('/title', input.title)
  await requireVisible(w.trx, w.visibility, [
    ['/project_id', 'project', input.project_id],
    ['/parent_id', 'task', input.parent_id],
  ])
  const parent = input.parent_id ? await taskRow(w, input.parent_id) : undefined
  // A task one may open only as its assignee or creator does not open its project: a subtask
  // there would be work placed where its creator cannot see, and any rule checked against that
  // project would tell of it. Such a parent is the one 404 of an unknown parent, found where an
  // unknown parent would be: before any later field or rule is looked at.
  if (parent?.project_id && !(await canOpen(w.trx, w.visibility, parent.project_id)))
    throw notFound('/parent_id')
  await requireVisible(w.trx, w.visibility, [
    ['/canvas_id', 'canvas', input.canvas_id],
    ['/assignee_id', 'person', input.assignee_id],
  ])
  if (parent && input.project_id !== undefined && input.project_id !== parent.project_id)
    throw ruleBroken('/project_id', "must be the parent's project (or left out)")
  const projectId = parent ? parent.project_id : (input.project_id ?? null)
  requireProjectInFence(w.principal.fence, projectId)
  if (input.canvas_id) {
    const canvas = await w.trx
      .selectFrom('canvases')
      .select('project_id')
      .where('workspace_id', '=', ws)
      .where('id', '=', input.canvas_id)
      .executeTakeFirstOrThrow()
    // A private canvas shared with the caller may sit in a project they cannot open: as on the
    // canvas they see, it then has none.
    const canvasProject = await projectSeenBy(w, canvas.project_id)
    if (canvasProject !== null && canvasProject !== projectId)
      throw ruleBroken('/canvas_id', "must be a canvas of the task's project")
  }
  if (
    input.assignee_id &&
    projectId &&
    !(await personCanOpen(w.trx, ws, input.assignee_id, projectId))
  )
    throw ruleBroken('/assignee_id', "must be a person who can open the task's project")

  const status = input.status ?? 'todo'
  const row = {
    workspace_id: ws,
    id: newId('task'),
    title: input.title,
    description: input.description ?? '',
    status,
    due: input.due ?? null,
    assignee_id: input.assignee_id ?? null,
    parent_id: parent?.id ?? null,
    project_id: projectId,
    canvas_id: input.canvas_id ?? null,
    creator_id: w.principal.actorId,
    completed_at: status === 'done' ? w.now : null,
    created_at: w.now,
    updated_at: w.now,
  }
  // The answer is the new row with its links' visibility, read as a list reads it. The task itself
  // is open to its writer: its creator is in its ACL whatever its project.
  const [created] = await insertRecorded(
    w,
    w.trx.insertInto('tasks').values(row).returningAll(),
    {
      verb: 'task.created',
      subjectId: row.id,
      subjectType: 'task',
      projectId,
      refs: [row.parent_id],
      audit: { resourceId: row.id, resourceType: 'task', before: null, after: auditedTask(row) },
      eventObject: unfilteredTask(w, row),
    },
    sql<TaskRow>`select t.*, ${sql.join(taskLinksVisible(w.visibility))} from ${sql.table(INSERTED_ROW)} t`,
  )
  if (!created) throw new Error(`task ${row.id} was not inserted`)
  return presentTask(created, w.deps.urls, w.now)
}

/**
 * Marks a task done. Completing a task that is already done changes nothing and records
 * nothing: the call is naturally idempotent, with or without a key.
 */
export function completeTask(w: WriteContext, taskId: string): Promise<Task> {
  return updateTask(w, taskId, { status: 'done' })
}

/**
 * Changes a task's title, description, status, assignee or due date (docs/api.md, "Writes").
 * Only the fields given change, and a body that changes nothing records nothing. Setting `done`
 * completes the task, with the `task.completed` entry and event that completing gives; any other
 * change is `task.updated`, and a status other than `done` reopens a done task. A new assignee
 * must be a person the caller can see who can open the task's project; a task without a project
 * is reassigned only by its creator, since the assignee is who else may open it. A project the
 * caller cannot open counts as none (docs/permissions.md, "Inferring what one cannot see").
 */
export async function updateTask(
  w: WriteContext,
  taskId: string,
  body: Static<typeof UpdateTaskBody>,
): Promise<Task> {
  const ws = w.principal.workspaceId
  if (idKind(taskId) !== 'task' || !(await canOpen(w.trx, w.visibility, taskId))) throw notFound()
  const input = {
    ...body,
    assignee_id: await namedReference(w.trx, w, 'person', body.assignee_id, '/assignee_id'),
  }
  requireText('/title', input.title)
  await requireVisible(w.trx, w.visibility, [['/assignee_id', 'person', input.assignee_id]])
  const before = await taskRow(w, taskId)
  const reassigned = input.assignee_id !== undefined && input.assignee_id !== before.assignee_id
  // The rules read the task's project as the caller sees it: one the caller cannot open is as
  // absent as it is on the record they see, so no answer depends on who can open it.
  const projectId = reassigned ? await projectSeenBy(w, before.project_id) : null
  if (reassigned && projectId === null && before.creator_id !== w.principal.actorId)
    throw ruleBroken('/assignee_id', 'of a task without a project is changed only by its creator')
  if (
    reassigned &&
    input.assignee_id &&
    projectId &&
    !(await personCanOpen(w.trx, ws, input.assignee_id, projectId))
  )
    throw ruleBroken('/assignee_id', "must be a person who can open the task's project")

  const status = input.status ?? before.status
  const after: StoredTask = {
    ...before,
    title: input.title ?? before.title,
    description: input.description ?? before.description,
    status,
    assignee_id: input.assignee_id === undefined ? before.assignee_id : input.assignee_id,
    due: input.due === undefined ? before.due : input.due,
    completed_at: status !== 'done' ? null : before.status === 'done' ? before.completed_at : w.now,
    updated_at: w.now,
  }
  const changed = UPDATABLE.filter((field) => before[field] !== after[field])
  if (changed.length === 0) return taskFor(w, taskId)

  await w.trx
    .updateTable('tasks')
    .set({
      title: after.title,
      description: after.description,
      status: after.status,
      assignee_id: after.assignee_id,
      due: after.due,
      completed_at: after.completed_at,
      updated_at: w.now,
    })
    .where('workspace_id', '=', ws)
    .where('id', '=', taskId)
    .execute()
  await syncResourceIndex(w.trx, ws, { ids: [taskId] })
  const completed = before.status !== 'done' && after.status === 'done'
  await recordChange(w, {
    verb: completed ? 'task.completed' : 'task.updated',
    subjectId: taskId,
    subjectType: 'task',
    projectId: before.project_id,
    refs: [before.parent_id],
    // The assignee's ids are stored whole; each reader is shown only the people it may see
    // (activity/changed-people.ts).
    changes: Object.fromEntries(
      changed.map((field) => [field, { from: before[field], to: after[field] }]),
    ),
    audit: {
      resourceId: taskId,
      resourceType: 'task',
      before: auditedTask(before),
      after: auditedTask(after),
    },
    eventObject: unfilteredTask(w, after),
  })
  return taskFor(w, taskId)
}

// The project as the caller sees it: the id when they may open it, else null.
async function projectSeenBy(w: WriteContext, projectId: string | null): Promise<string | null> {
  return projectId && (await canOpen(w.trx, w.visibility, projectId)) ? projectId : null
}

// The fields a task's update may change, in the order its activity lists them.
const UPDATABLE = ['title', 'description', 'status', 'assignee_id', 'due'] as const

type StoredTask = Omit<TaskRow, `${string}_visible`>

async function taskRow(w: WriteContext, id: string): Promise<StoredTask> {
  return w.trx
    .selectFrom('tasks')
    .selectAll()
    .where('workspace_id', '=', w.principal.workspaceId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

// The task as the caller sees it, read back through the visibility module.
async function taskFor(w: WriteContext, id: string): Promise<Task> {
  const [row] = await listTasks(w.trx, w.visibility, { ids: [id] }, null, 1)
  if (!row) throw new Error(`task ${id} is not visible to its writer`)
  return presentTask(row, w.deps.urls, w.now)
}

// Every link included: each webhook recipient is shown only the links it may open.
function unfilteredTask(w: WriteContext, row: StoredTask): Task {
  const visible = {
    project_visible: true,
    parent_visible: true,
    canvas_visible: true,
    assignee_visible: true,
    creator_visible: true,
  }
  return presentTask({ ...row, ...visible }, w.deps.urls, w.now)
}

function auditedTask(row: StoredTask): Record<string, unknown> {
  const { workspace_id: _, created_at: __, updated_at: ___, ...fields } = row
  return { ...fields, completed_at: fields.completed_at?.toISOString() ?? null }
}
