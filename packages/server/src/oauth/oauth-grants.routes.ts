import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../api/authenticated.ts'
import { listResponse } from '../api/list-response.ts'
import { notFound } from '../api/problem-catalogue.ts'
import { IdParams, Page } from '../api/schemas.ts'
import type { AppDeps } from '../app-deps.ts'
import { revokeOAuthGrant } from '../tokens/oauth-grants.commands.ts'
import { listOAuthGrants, type OAuthGrantRow } from '../tokens/oauth-grants.queries.ts'
import { httpWrite } from '../writes/http-write.ts'
import { IdempotencyHeaders } from '../writes/write-schemas.ts'
import { ListOAuthGrantsQuery, OAuthGrantRecord } from './oauth-grants.schemas.ts'

function presentGrant(row: OAuthGrantRow, status: 'active' | 'revoked' = 'active') {
  return {
    id: row.id,
    client_id: row.client_id,
    client_name: row.client_name,
    person_id: row.person_id,
    scopes: row.scopes,
    project_ids: row.project_ids,
    status,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    expires_at: row.expires_at.toISOString(),
  }
}

/**
 * The apps people have authorized (scope `token:manage`), beside API keys: everyone sees and
 * revokes their own; owners and admins every one of the workspace.
 */
export function oauthGrantRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/oauth-grants',
      {
        schema: {
          operationId: 'listOAuthGrants',
          summary: 'List the apps authorized to act for people',
          tags: ['tokens'],
          querystring: ListOAuthGrantsQuery,
          response: { 200: Page(OAuthGrantRecord) },
        },
        config: { scopes: ['token:manage'] },
      },
      async (request) => {
        const caller = authenticated(request)
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) => listOAuthGrants(deps.db, caller, request.query, after, limit),
          position: (row) => [row.created_at.toISOString(), row.id],
          present: (row) => presentGrant(row),
        })
      },
    )

    app.post(
      '/v1/oauth-grants/:id/revoke',
      {
        schema: {
          operationId: 'revokeOAuthGrant',
          summary: "Revoke an app's access: its consent and every token at once",
          tags: ['tokens'],
          headers: IdempotencyHeaders,
          params: IdParams,
          response: { 200: OAuthGrantRecord },
        },
        config: { scopes: ['token:manage'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => {
          const [grant] = await listOAuthGrants(
            w.trx,
            w.caller,
            { ids: [request.params.id] },
            null,
            1,
          )
          if (!grant) throw notFound()
          await revokeOAuthGrant(w.trx, w.actor, grant, w.now)
          return { status: 200, body: presentGrant(grant, 'revoked') }
        }),
    )
  }
}
