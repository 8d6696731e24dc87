import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../../api/authenticated.ts'
import { isDryRun } from '../../api/dry-run.ts'
import { listResponse } from '../../api/list-response.ts'
import { IdParams, Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { httpWrite, httpWriteOutcome, sendWriteOutcome } from '../../writes/http-write.ts'
import { IdempotencyHeaders } from '../../writes/write-schemas.ts'
import { emailInvitation } from './invitation-email.ts'
import {
  createInvitation,
  type Invited,
  joinPath,
  revokeInvitation,
} from './invitations.commands.ts'
import { presentInvitation } from './invitations.present.ts'
import { listPendingInvitations } from './invitations.queries.ts'
import {
  CreatedInvitation,
  CreateInvitationBody,
  InvitationRecord,
  ListInvitationsQuery,
} from './invitations.schemas.ts'
import { requireAdministrator } from './people-admin.rules.ts'

/**
 * `POST /v1/invitations`, `GET /v1/invitations` and `DELETE /v1/invitations/:id` (scope
 * `people:write`, owners and admins): who may join the workspace. The link is in the answer
 * that made it, and nowhere else.
 */
export function invitationRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/invitations',
      {
        schema: {
          operationId: 'createInvitation',
          summary: 'Invite someone to the workspace',
          tags: ['people'],
          headers: IdempotencyHeaders,
          body: CreateInvitationBody,
          response: { 201: CreatedInvitation },
        },
        config: { scopes: ['people:write'], write: true },
      },
      async (request, reply) => {
        let invited: Invited | null = null
        // The stored answer (a replay's) holds neither the link nor the email's fate.
        const outcome = await httpWriteOutcome(deps, request, reply, async (w) => {
          invited = await createInvitation(w, request.body)
          const invitation = presentInvitation(invited.row, w.now)
          return { status: 201, body: { invitation, url: null, email: null } }
        })
        const made = invited as Invited | null
        if (!made || outcome.replayed || outcome.status !== 201 || isDryRun(request))
          return sendWriteOutcome(reply, outcome)
        const url = `${deps.config.publicUrl}${joinPath(made.token)}`
        const email = await emailInvitation(deps, made, url, request.log)
        const invitation = presentInvitation(made.row, made.row.created_at)
        return reply.code(201).send({ invitation, url, email })
      },
    )

    app.get(
      '/v1/invitations',
      {
        schema: {
          operationId: 'listInvitations',
          summary: 'List pending invitations',
          tags: ['people'],
          querystring: ListInvitationsQuery,
          response: { 200: Page(InvitationRecord) },
        },
        config: { scopes: ['people:write'] },
      },
      async (request) => {
        const { principal } = authenticated(request)
        requireAdministrator(principal)
        const now = deps.clock.now()
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) =>
            listPendingInvitations(deps.db, principal.workspaceId, now, after, limit),
          position: (row) => [row.created_at.toISOString(), row.id],
          present: (row) => presentInvitation(row, now),
        })
      },
    )

    app.delete(
      '/v1/invitations/:id',
      {
        schema: {
          operationId: 'revokeInvitation',
          summary: 'Revoke an invitation',
          tags: ['people'],
          headers: IdempotencyHeaders,
          params: IdParams,
          response: { 200: InvitationRecord },
        },
        config: { scopes: ['people:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => {
          const row = await revokeInvitation(w, request.params.id)
          return { status: 200, body: presentInvitation(row, w.now) }
        }),
    )
  }
}
