import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { httpWrite } from '../../writes/http-write.ts'
import { IdempotencyHeaders } from '../../writes/write-schemas.ts'
import { TeamRecord } from './people.schemas.ts'
import { addTeamMember, createTeam, removeTeamMember, renameTeam } from './teams.commands.ts'
import {
  AddTeamMemberBody,
  CreateTeamBody,
  TeamMemberParams,
  UpdateTeamBody,
} from './teams.schemas.ts'

/** Creating and renaming teams, and changing their members (docs/api.md, "Teams"). */
export function teamRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const write = { scopes: ['people:write' as const], write: true }
    app.post(
      '/v1/teams',
      {
        schema: {
          operationId: 'createTeam',
          summary: 'Create a team',
          tags: ['people'],
          headers: IdempotencyHeaders,
          body: CreateTeamBody,
          response: { 201: TeamRecord },
        },
        config: write,
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 201,
          body: await createTeam(w, request.body),
        })),
    )

    app.patch(
      '/v1/teams/:id',
      {
        schema: {
          operationId: 'updateTeam',
          summary: 'Rename a team',
          tags: ['people'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: UpdateTeamBody,
          response: { 200: TeamRecord },
        },
        config: write,
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await renameTeam(w, request.params.id, request.body.name),
        })),
    )

    app.post(
      '/v1/teams/:id/members',
      {
        schema: {
          operationId: 'addTeamMember',
          summary: 'Add a person to a team',
          tags: ['people'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: AddTeamMemberBody,
          response: { 200: TeamRecord },
        },
        config: write,
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await addTeamMember(w, request.params.id, request.body),
        })),
    )

    app.delete(
      '/v1/teams/:id/members/:person_id',
      {
        schema: {
          operationId: 'removeTeamMember',
          summary: 'Remove a person from a team',
          tags: ['people'],
          headers: IdempotencyHeaders,
          params: TeamMemberParams,
          response: { 200: TeamRecord },
        },
        config: write,
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await removeTeamMember(w, request.params.id, request.params.person_id),
        })),
    )
  }
}
