import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { httpWrite } from '../../writes/http-write.ts'
import type { WriteContext } from '../../writes/write-context.ts'
import { IdempotencyHeaders } from '../../writes/write-schemas.ts'
import { PersonRecord } from './people.schemas.ts'
import { changeRole, deactivatePerson, reactivatePerson } from './people-admin.commands.ts'
import { UpdatePersonBody } from './people-admin.schemas.ts'

const PEOPLE_WRITE = { scopes: ['people:write'], write: true } as const

/**
 * `PATCH /v1/people/:id` (the role), `POST /v1/people/:id/deactivate` and `…/reactivate`
 * (scope `people:write`, owners and admins): the rules are in people-admin.commands.ts.
 */
export function peopleAdminRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.patch(
      '/v1/people/:id',
      {
        schema: {
          operationId: 'updatePerson',
          summary: "Change a person's role",
          tags: ['people'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: UpdatePersonBody,
          response: { 200: PersonRecord },
        },
        config: PEOPLE_WRITE,
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 200,
          body: await changeRole(w, request.params.id, request.body.role),
        })),
    )

    const lifecycle = (
      path: string,
      operationId: string,
      summary: string,
      command: (w: WriteContext, id: string) => Promise<unknown>,
    ) =>
      app.post(
        path,
        {
          schema: {
            operationId,
            summary,
            tags: ['people'],
            headers: IdempotencyHeaders,
            params: IdParams,
            response: { 200: PersonRecord },
          },
          config: PEOPLE_WRITE,
        },
        (request, reply) =>
          httpWrite(deps, request, reply, async (w) => ({
            status: 200,
            body: await command(w, request.params.id),
          })),
      )
    lifecycle(
      '/v1/people/:id/deactivate',
      'deactivatePerson',
      'Deactivate a person: end their sign-in and every credential at once',
      deactivatePerson,
    )
    lifecycle(
      '/v1/people/:id/reactivate',
      'reactivatePerson',
      'Reactivate a deactivated person',
      reactivatePerson,
    )
  }
}
