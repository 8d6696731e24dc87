import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { readScopesByKind } from '../../access/scopes.ts'
import { canOpen } from '../../access/visibility.ts'
import { authenticated } from '../../api/authenticated.ts'
import { listResponse } from '../../api/list-response.ts'
import { notFound } from '../../api/problem-catalogue.ts'
import { IdParams, Page } from '../../api/schemas.ts'
import type { AppDeps } from '../../app-deps.ts'
import { createdPosition } from '../../db/keyset.ts'
import { presentComment } from '../comments/comments.present.ts'
import { listComments } from '../comments/comments.queries.ts'
import { CommentRecord, ListCommentsQuery } from '../comments/comments.schemas.ts'
import { listLinks } from '../links/links.queries.ts'
import { type AnyRecord, anyRecordSchema, loadRecord } from './load-record.ts'
import { LinkItem, ListLinksQuery } from './resources.schemas.ts'

/**
 * `GET /v1/resources/:id` (any record), `…/links` (its visible neighbours) and `…/comments` (the
 * threads on it). A hidden id and an unknown one get the same 404.
 */
export function resourceRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const scopes = readScopesByKind()
    const recordSchema = anyRecordSchema()
    app.get(
      '/v1/resources/:id',
      {
        schema: {
          operationId: 'getResource',
          summary: 'Get any resource by id',
          tags: ['resources'],
          params: IdParams,
          response: { 200: recordSchema },
        },
        config: { scopes },
      },
      async (request): Promise<AnyRecord> => {
        const record = await loadRecord(deps, authenticated(request), request.params.id)
        if (!record) throw notFound()
        return record
      },
    )
    app.get(
      '/v1/resources/:id/links',
      {
        schema: {
          operationId: 'listResourceLinks',
          summary: 'List the visible neighbours of a resource',
          tags: ['resources'],
          params: IdParams,
          querystring: ListLinksQuery,
          response: { 200: Page(LinkItem) },
        },
        config: { scopes },
      },
      async (request) => {
        const auth = authenticated(request)
        const { id } = request.params
        if (!(await canOpen(deps.db, auth.visibility, id))) throw notFound()
        const ws = auth.principal.workspaceId
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) =>
            listLinks(deps.db, auth.visibility, auth.readableKinds, id, after, limit),
          position: (row) => [row.rank, row.id],
          present: (row) => ({
            rel: row.rel,
            id: row.id,
            type: row.type,
            title: row.title,
            ...deps.urls.resource(ws, row.type, row.id),
          }),
        })
      },
    )
    app.get(
      '/v1/resources/:id/comments',
      {
        schema: {
          operationId: 'listResourceComments',
          summary: 'List the comments on a resource, oldest first',
          tags: ['comments'],
          params: IdParams,
          querystring: ListCommentsQuery,
          response: { 200: Page(CommentRecord) },
        },
        config: { scopes: ['comment:read'] },
      },
      async (request) => {
        const { visibility } = authenticated(request)
        const { id } = request.params
        if (!(await canOpen(deps.db, visibility, id))) throw notFound()
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) =>
            listComments(deps.db, visibility, { resource_id: id }, after, limit),
          position: createdPosition,
          present: (row) => presentComment(row, deps.urls),
        })
      },
    )
  }
}
