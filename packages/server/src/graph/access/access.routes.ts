import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { accessReasons, hasAccessReasons } from '../../access/access-reasons.ts'
import { canAdminister } from '../../access/administration.ts'
import type { Caller } from '../../access/caller.ts'
import { type Principal, resolvePrincipal } from '../../access/principal.ts'
import { reasonsSeenBy } from '../../access/reasons-seen-by.ts'
import { readScopesByKind } from '../../access/scopes.ts'
import { canOpen } from '../../access/visibility.ts'
import { authenticated } from '../../api/authenticated.ts'
import { notFound, ProblemError } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { IdParams } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { allKinds } from '../../catalogue/catalogue.ts'
import { catalogueKindOf } from '../../lib/ids.ts'
import { AccessQuery, AccessRecord } from './access.schemas.ts'

/**
 * `GET /v1/resources/:id/access`: why the caller (or, for owners and admins, another person) may
 * open a resource. A hidden id is the same 404 as an unknown one.
 */
export function accessRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const scopes = readScopesByKind(allKinds().filter((kind) => hasAccessReasons(kind.name)))
    app.get(
      '/v1/resources/:id/access',
      {
        schema: {
          operationId: 'getResourceAccess',
          summary: 'Why a resource is open to you (or to another person)',
          tags: ['resources'],
          params: IdParams,
          querystring: AccessQuery,
          response: { 200: AccessRecord },
        },
        config: { scopes },
      },
      async (request) => {
        const caller = authenticated(request)
        const { id } = request.params
        const kind = catalogueKindOf(id)
        // Decided from the prefix alone, before any lookup: it says nothing about the id.
        if (kind === undefined || !hasAccessReasons(kind.name)) {
          if (kind === undefined) throw notFound()
          throw new ProblemError(
            'invalid_request',
            'Access reasons are given for projects, canvases, tasks, objectives, key results, ' +
              'check-ins, comments, people and teams.',
          )
        }
        const personId = request.query.person_id
        const aboutOther = personId !== undefined && personId !== caller.principal.actorId
        if (aboutOther && !administers(caller))
          throw new ProblemError(
            'forbidden',
            'Only workspace owners and admins may ask why another person can open a resource.',
          )
        if (!(await canOpen(deps.db, caller.visibility, id))) throw notFound()
        const subject = aboutOther
          ? await personPrincipal(deps, caller, personId)
          : caller.principal
        const reasons = await accessReasons(deps.db, subject, id)
        return {
          resource_id: id,
          person_id: subject.actorId,
          reasons: await reasonsSeenBy(deps.db, caller, reasons, aboutOther),
        }
      },
    )
  }
}

/** Owners and admins, as people: an integration administers nothing. */
function administers(caller: Caller): boolean {
  return caller.principal.actorKind === 'person' && canAdminister(caller.principal)
}

/** The principal set of another person of the workspace; the API's 404 for any other id. */
async function personPrincipal(
  deps: AppDeps,
  caller: Caller,
  personId: string,
): Promise<Principal> {
  await requireVisible(deps.db, caller.visibility, [['/person_id', 'person', personId]])
  const person = await deps.db
    .selectFrom('people')
    .select('role')
    .where('workspace_id', '=', caller.principal.workspaceId)
    .where('id', '=', personId)
    .executeTakeFirstOrThrow()
  return resolvePrincipal(deps.db, {
    workspaceId: caller.principal.workspaceId,
    actorId: personId,
    actorKind: 'person',
    role: person.role,
  })
}
