import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppDeps } from '../../app-deps.ts'
import { httpWrite } from '../../writes/http-write.ts'
import { IdempotencyHeaders } from '../../writes/write-schemas.ts'
import { createComment } from './comments.commands.ts'
import { CommentRecord, CreateCommentBody } from './comments.schemas.ts'

/** `POST /v1/comments`; comments are read through `GET /v1/resources/:id/comments`. */
export function commentRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/comments',
      {
        schema: {
          operationId: 'createComment',
          summary: 'Comment on a resource, or reply to a comment',
          tags: ['comments'],
          headers: IdempotencyHeaders,
          body: CreateCommentBody,
          response: { 201: CommentRecord },
        },
        config: { scopes: ['comment:write'], write: true },
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => ({
          status: 201,
          body: await createComment(w, request.body),
        })),
    )
  }
}
