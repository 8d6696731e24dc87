import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticated } from '../../api/authenticated.ts'
import { listResponse } from '../../api/list-response.ts'
import { notFound } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { IdParams, Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { presentPerson, presentTeam } from './people.present.ts'
import { listPeople, listTeams, namePosition } from './people.queries.ts'
import { ListPeopleQuery, ListTeamsQuery, PersonRecord, TeamRecord } from './people.schemas.ts'

/** `GET /v1/people`, `GET /v1/people/:id` and `GET /v1/teams`: the directory the caller can see. */
export function peopleRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/people',
      {
        schema: {
          operationId: 'listPeople',
          summary: 'List people',
          tags: ['people'],
          querystring: ListPeopleQuery,
          response: { 200: Page(PersonRecord) },
        },
        config: { scopes: ['people:read'] },
      },
      async (request) => {
        const { visibility } = authenticated(request)
        const { query } = request
        await requireVisible(deps.db, visibility, [['/team_id', 'team', query.team_id]])
        return listResponse(deps.cursors, request, query, {
          load: (after, limit) => listPeople(deps.db, visibility, query, after, limit),
          position: namePosition,
          present: (row) => presentPerson(row, visibility.principal.isMember, deps.urls),
        })
      },
    )
    app.get(
      '/v1/people/:id',
      {
        schema: {
          operationId: 'getPerson',
          summary: 'Get a person',
          tags: ['people'],
          params: IdParams,
          response: { 200: PersonRecord },
        },
        config: { scopes: ['people:read'] },
      },
      async (request) => {
        const { visibility } = authenticated(request)
        const [row] = await listPeople(deps.db, visibility, { ids: [request.params.id] }, null, 1)
        if (!row) throw notFound()
        return presentPerson(row, visibility.principal.isMember, deps.urls)
      },
    )
    app.get(
      '/v1/teams',
      {
        schema: {
          operationId: 'listTeams',
          summary: 'List teams',
          tags: ['people'],
          querystring: ListTeamsQuery,
          response: { 200: Page(TeamRecord) },
        },
        config: { scopes: ['people:read'] },
      },
      async (request) => {
        const { visibility } = authenticated(request)
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) => listTeams(deps.db, visibility, {}, after, limit),
          position: namePosition,
          present: (row) => presentTeam(row, deps.urls),
        })
      },
    )
  }
}
