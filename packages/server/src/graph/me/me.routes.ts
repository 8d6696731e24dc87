import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'
import type { Caller } from '../../access/caller.ts'
import { authenticated } from '../../api/authenticated.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import type { AppDeps } from '../../app-deps.ts'
import { actorName, fencedProjectsStillOpen } from './me.queries.ts'
import { MeRecord } from './me.schemas.ts'

/**
 * `GET /v1/me`: who the token acts as and what it may do, for any token (as OAuth's userinfo is):
 * the first call of an integration that must say "me" or check its scopes before it acts.
 */
export function meRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/me',
      {
        schema: {
          operationId: 'getMe',
          summary: 'Who the token acts as, and what it may do',
          tags: ['workspace'],
          response: { 200: MeRecord },
        },
        // Every token may ask whom it acts as; what it tells is the token's own.
        config: { scopes: [] },
      },
      async (request) => presentMe(deps, authenticated(request)),
    )
  }
}

async function presentMe(deps: AppDeps, caller: Caller): Promise<Static<typeof MeRecord>> {
  const { principal, credential } = caller
  const name = await actorName(deps.db, caller)
  // Removed since the token was read, a moment ago: the token no longer acts as anyone.
  if (name === null)
    throw new ProblemError('invalid_token', 'The token is malformed, unknown or revoked.')
  const isPerson = principal.actorKind === 'person'
  return {
    type: 'me',
    actor: {
      id: principal.actorId,
      type: principal.actorKind,
      name,
      role: isPerson ? principal.role : null,
      url: isPerson
        ? deps.urls.resource(principal.workspaceId, 'person', principal.actorId).url
        : null,
    },
    workspace: { id: principal.workspaceId, url: deps.urls.workspace(principal.workspaceId).url },
    credential: {
      id: credential.id,
      type: bearerKind(credential.kind),
      client_id: credential.clientId,
      scopes: [...credential.scopes].sort(),
      project_ids: await fencedProjectsStillOpen(deps.db, caller),
      expires_at: credential.validUntil?.toISOString() ?? null,
    },
  }
}

// A dashboard session never reaches /v1: only bearer credentials do.
function bearerKind(kind: Caller['credential']['kind']): 'api_key' | 'workspace_token' | 'oauth' {
  if (kind !== 'web_session') return kind
  throw new Error(`a ${kind} credential on /v1`)
}
