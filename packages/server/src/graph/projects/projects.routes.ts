import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../../api/authenticated.ts'
import { listResponse } from '../../api/list-response.ts'
import { IdParams, Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { createdPosition } from '../../db/keyset.ts'
import { httpWrite } from '../../writes/http-write.ts'
import { IdempotencyHeaders } from '../../writes/write-schemas.ts'
import { addProjectMember, removeProjectMember } from './project-members.commands.ts'
import { createProject, updateProject } from './projects.commands.ts'
import { presentProject } from './projects.present.ts'
import { listProjects } from './projects.queries.ts'
import {
  AddProjectMemberBody,
  CreateProjectBody,
  ListProjectsQuery,
  ProjectMemberParams,
  ProjectRecord,
  UpdateProjectBody,
} from './projects.schemas.ts'

/**
 * `GET /v1/projects` (the projects the caller may open, newest first), creating and changing
 * projects, and their members (docs/api.md, "Projects").
 */
export function projectRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/projects',
      {
        schema: {
          operationId: 'listProjects',
          summary: 'List projects',
          tags: ['projects'],
          querystring: ListProjectsQuery,
          response: { 200: Page(ProjectRecord) },
        },
        config: { scopes: ['project:read'] },
      },
      async (request) => {
        const { visibility } = authenticated(request)
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) => listProjects(deps.db, visibility, request.query, after, limit),
          position: createdPosition,
          present: (row) => presentProject(row, deps.urls),
        })
      },
    )

    app.post(
      '/v1/projects',
      {
        schema: {
          operationId: 'createProject',
          summary: 'Create a project',
          tags: ['projects'],
          headers: IdempotencyHeaders,
          body: CreateProjectBody,
          response: { 201: ProjectRecord },
        },
        config: { scopes: ['project:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 201,
          body: await createProject(w, request.body),
        })),
    )

    app.patch(
      '/v1/projects/:id',
      {
        schema: {
          operationId: 'updateProject',
          summary: "Change a project's name, description, status, visibility or owner",
          tags: ['projects'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: UpdateProjectBody,
          response: { 200: ProjectRecord },
        },
        config: { scopes: ['project:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await updateProject(w, request.params.id, request.body),
        })),
    )

    app.post(
      '/v1/projects/:id/members',
      {
        schema: {
          operationId: 'addProjectMember',
          summary: 'Add a person, team or integration to a project',
          tags: ['projects'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: AddProjectMemberBody,
          response: { 200: ProjectRecord },
        },
        config: { scopes: ['project:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await addProjectMember(w, request.params.id, request.body),
        })),
    )

    app.delete(
      '/v1/projects/:id/members/:member_id',
      {
        schema: {
          operationId: 'removeProjectMember',
          summary: 'Remove a direct member from a project',
          tags: ['projects'],
          headers: IdempotencyHeaders,
          params: ProjectMemberParams,
          response: { 200: ProjectRecord },
        },
        config: { scopes: ['project:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await removeProjectMember(w, request.params.id, request.params.member_id),
        })),
    )
  }
}
