import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../../api/authenticated.ts'
import { listResponse } from '../../api/list-response.ts'
import { namedReference } from '../../api/named-reference.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { IdParams, Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { createdPosition } from '../../db/keyset.ts'
import { httpWrite } from '../../writes/http-write.ts'
import { IdempotencyHeaders } from '../../writes/write-schemas.ts'
import { completeTask, createTask, updateTask } from './tasks.commands.ts'
import { presentTask } from './tasks.present.ts'
import { listTasks } from './tasks.queries.ts'
import { CreateTaskBody, ListTasksQuery, TaskRecord, UpdateTaskBody } from './tasks.schemas.ts'

/** `GET /v1/tasks` (tasks the caller may open, newest first); creating, changing, completing. */
export function taskRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/tasks',
      {
        schema: {
          operationId: 'listTasks',
          summary: 'List tasks',
          tags: ['tasks'],
          querystring: ListTasksQuery,
          response: { 200: Page(TaskRecord) },
        },
        config: { scopes: ['task:read'] },
      },
      async (request) => {
        const caller = authenticated(request)
        const { visibility } = caller
        const given = request.query
        const query = {
          ...given,
          assignee_id: await namedReference(
            deps.db,
            caller,
            'person',
            given.assignee_id,
            '/assignee_id',
          ),
          project_id: await namedReference(
            deps.db,
            caller,
            'project',
            given.project_id,
            '/project_id',
          ),
        }
        await requireVisible(deps.db, visibility, [
          ['/project_id', 'project', query.project_id],
          ['/assignee_id', 'person', query.assignee_id],
        ])
        return listResponse(deps.cursors, request, query, {
          load: (after, limit) => listTasks(deps.db, visibility, query, after, limit),
          position: createdPosition,
          present: (row) => presentTask(row, deps.urls, deps.clock.now()),
        })
      },
    )

    app.post(
      '/v1/tasks',
      {
        schema: {
          operationId: 'createTask',
          summary: 'Create a task',
          tags: ['tasks'],
          headers: IdempotencyHeaders,
          body: CreateTaskBody,
          response: { 201: TaskRecord },
        },
        config: { scopes: ['task:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 201,
          body: await createTask(w, request.body),
        })),
    )

    app.patch(
      '/v1/tasks/:id',
      {
        schema: {
          operationId: 'updateTask',
          summary: "Change a task's title, description, status, assignee or due date",
          description:
            'Only the fields given change; a body that changes nothing answers 200 and records nothing. `status: "done"` completes the task (a `task.completed` event), another status reopens a done one.',
          tags: ['tasks'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: UpdateTaskBody,
          response: { 200: TaskRecord },
        },
        config: { scopes: ['task:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await updateTask(w, request.params.id, request.body),
        })),
    )

    app.post(
      '/v1/tasks/:id/complete',
      {
        schema: {
          operationId: 'completeTask',
          summary: 'Mark a task done',
          description: 'Completing a task that is already done changes nothing and answers 200.',
          tags: ['tasks'],
          headers: IdempotencyHeaders,
          params: IdParams,
          response: { 200: TaskRecord },
        },
        config: { scopes: ['task:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await completeTask(w, request.params.id),
        })),
    )
  }
}
