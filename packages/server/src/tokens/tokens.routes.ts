import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../api/authenticated.ts'
import { listResponse } from '../api/list-response.ts'
import { notFound } from '../api/problem-catalogue.ts'
import { IdParams, Page } from '../api/schemas.ts'
import type { AppDeps } from '../app-deps.ts'
import { httpWrite } from '../writes/http-write.ts'
import { IdempotencyHeaders } from '../writes/write-schemas.ts'
import { createApiKey, revokeToken, rotateApiKey } from './tokens.commands.ts'
import { presentToken } from './tokens.present.ts'
import { listTokens } from './tokens.queries.ts'
import {
  CreateApiKeyBody,
  DEFAULT_OVERLAP_SECONDS,
  IssuedKey,
  ListTokensQuery,
  RotateApiKeyBody,
  RotatedKey,
  TokenRecord,
} from './tokens.schemas.ts'

/**
 * Token management (scope `token:manage`): everyone manages their own keys; owners and admins can
 * also list and revoke every token of the workspace. A key is always issued to, and rotated by,
 * the person it acts as, and never with scopes the token making the request lacks: no one can
 * obtain a secret that opens someone else's content, or more than their own token does.
 */
export function tokenRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/tokens',
      {
        schema: {
          operationId: 'listTokens',
          summary: 'List API keys and workspace tokens',
          tags: ['tokens'],
          querystring: ListTokensQuery,
          response: { 200: Page(TokenRecord) },
        },
        config: { scopes: ['token:manage'] },
      },
      async (request) => {
        const caller = authenticated(request)
        const now = deps.clock.now()
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) => listTokens(deps.db, caller, request.query, after, limit, now),
          position: (row) => [row.created_at.toISOString(), row.id],
          present: (row) => presentToken(row, now),
        })
      },
    )

    app.post(
      '/v1/api-keys',
      {
        schema: {
          operationId: 'createApiKey',
          summary: 'Create an API key for yourself',
          tags: ['tokens'],
          headers: IdempotencyHeaders,
          body: CreateApiKeyBody,
          response: { 201: IssuedKey },
        },
        config: { scopes: ['token:manage'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => {
          const issued = await createApiKey(w, request.body)
          return { status: 201, body: { ...presentToken(issued.row, w.now), token: issued.secret } }
        }),
    )

    app.post(
      '/v1/api-keys/:id/rotate',
      {
        schema: {
          operationId: 'rotateApiKey',
          summary: 'Rotate one of your API keys',
          tags: ['tokens'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: RotateApiKeyBody,
          response: { 200: RotatedKey },
        },
        config: { scopes: ['token:manage'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => {
          const overlap = request.body?.overlap_seconds ?? DEFAULT_OVERLAP_SECONDS
          const rotated = await rotateApiKey(w, request.params.id, overlap)
          return {
            status: 200,
            body: {
              ...presentToken(rotated.row, w.now),
              token: rotated.secret,
              previous_expires_at: rotated.previousExpiresAt.toISOString(),
            },
          }
        }),
    )

    app.post(
      '/v1/tokens/:id/revoke',
      {
        schema: {
          operationId: 'revokeToken',
          summary: 'Revoke a token at once',
          tags: ['tokens'],
          headers: IdempotencyHeaders,
          params: IdParams,
          response: { 200: TokenRecord },
        },
        config: { scopes: ['token:manage'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => {
          const ids = [request.params.id]
          const [token] = await listTokens(w.trx, w.caller, { ids }, null, 1, w.now)
          if (!token) throw notFound()
          const revoked = await revokeToken(w.trx, w.actor, token, w.now)
          return { status: 200, body: presentToken({ ...token, ...revoked }, w.now) }
        }),
    )
  }
}
