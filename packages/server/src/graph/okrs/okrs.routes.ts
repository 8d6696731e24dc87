import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../../api/authenticated.ts'
import { listResponse } from '../../api/list-response.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { IdParams, Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { createdPosition } from '../../db/keyset.ts'
import { httpWrite } from '../../writes/http-write.ts'
import { IdempotencyHeaders } from '../../writes/write-schemas.ts'
import { createCheckin } from './checkins.commands.ts'
import { addKeyResult, updateKeyResult } from './key-results.commands.ts'
import { createObjective, updateObjective } from './objectives.commands.ts'
import { CheckinCreated, CreateCheckinBody } from './okr-parts.schemas.ts'
import {
  CreateKeyResultBody,
  CreateOkrBody,
  KeyResultWritten,
  UpdateKeyResultBody,
  UpdateOkrBody,
} from './okr-writes.schemas.ts'
import { presentOkr } from './okrs.present.ts'
import { listOkrs } from './okrs.queries.ts'
import { ListOkrsQuery, OkrRecord } from './okrs.schemas.ts'

/**
 * `GET /v1/okrs` (objectives the caller may open, with key results), logging check-ins, and
 * creating, editing and closing objectives and their key results.
 */
export function okrRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/okrs',
      {
        schema: {
          operationId: 'listOkrs',
          summary: 'List OKRs',
          tags: ['okrs'],
          querystring: ListOkrsQuery,
          response: { 200: Page(OkrRecord) },
        },
        config: { scopes: ['okr:read'] },
      },
      async (request) => {
        const { visibility } = authenticated(request)
        const { query } = request
        await requireVisible(deps.db, visibility, [
          ['/project_id', 'project', query.project_id],
          ['/team_id', 'team', query.team_id],
        ])
        return listResponse(deps.cursors, request, query, {
          load: (after, limit) => listOkrs(deps.db, visibility, query, after, limit),
          position: createdPosition,
          present: (row) => presentOkr(row, deps.urls, deps.clock.now()),
        })
      },
    )

    app.post(
      '/v1/okr/checkins',
      {
        schema: {
          operationId: 'createCheckin',
          summary: 'Log a check-in on a key result',
          description:
            "Sets the key result's current value and recomputes its objective's progress; answers with both.",
          tags: ['okrs'],
          headers: IdempotencyHeaders,
          body: CreateCheckinBody,
          response: { 201: CheckinCreated },
        },
        config: { scopes: ['okr:checkin'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 201,
          body: await createCheckin(w, request.body),
        })),
    )

    app.post(
      '/v1/okrs',
      {
        schema: {
          operationId: 'createOkr',
          summary: 'Create an objective, with its key results',
          description:
            "People only, not guests. The owner is you unless given; a private objective must be yours or your team's.",
          tags: ['okrs'],
          headers: IdempotencyHeaders,
          body: CreateOkrBody,
          response: { 201: OkrRecord },
        },
        config: { scopes: ['okr:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 201,
          body: await createObjective(w, request.body),
        })),
    )

    app.patch(
      '/v1/okrs/:id',
      {
        schema: {
          operationId: 'updateOkr',
          summary: 'Change, close or reopen an objective',
          description:
            "For its owner, its team's members and the workspace's owners and admins, among those who can open it.",
          tags: ['okrs'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: UpdateOkrBody,
          response: { 200: OkrRecord },
        },
        config: { scopes: ['okr:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await updateObjective(w, request.params.id, request.body),
        })),
    )

    app.post(
      '/v1/okrs/:id/key-results',
      {
        schema: {
          operationId: 'createKeyResult',
          summary: 'Add a key result to an objective',
          description: "Recomputes the objective's progress; answers with both.",
          tags: ['okrs'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: CreateKeyResultBody,
          response: { 201: KeyResultWritten },
        },
        config: { scopes: ['okr:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 201,
          body: await addKeyResult(w, request.params.id, request.body),
        })),
    )

    app.patch(
      '/v1/key-results/:id',
      {
        schema: {
          operationId: 'updateKeyResult',
          summary: "Change a key result's title, start, target or unit",
          description: "Recomputes the objective's progress; answers with both.",
          tags: ['okrs'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: UpdateKeyResultBody,
          response: { 200: KeyResultWritten },
        },
        config: { scopes: ['okr:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await updateKeyResult(w, request.params.id, request.body),
        })),
    )
  }
}
