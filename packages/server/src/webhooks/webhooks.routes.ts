import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Caller } from '../access/caller.ts'
import { authenticated } from '../api/authenticated.ts'
import { listResponse } from '../api/list-response.ts'
import { notFound } from '../api/problem-catalogue.ts'
import { IdParams, Page } from '../api/schemas.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import { createdPosition } from '../db/keyset.ts'
import { httpWrite } from '../writes/http-write.ts'
import type { WriteContext } from '../writes/write-context.ts'
import type { WriteResult } from '../writes/write-request.ts'
import { IdempotencyHeaders } from '../writes/write-schemas.ts'
import { sendTestEvent } from './test-event.ts'
import {
  createEndpoint,
  deleteEndpoint,
  recoverDeliveries,
  replayDelivery,
  rotateSecret,
  updateEndpoint,
} from './webhooks.commands.ts'
import { presentAttemptDetail, presentDelivery, presentEndpoint } from './webhooks.present.ts'
import {
  attemptsOf,
  type DeliveryRow,
  type EndpointRow,
  findEndpoint,
  listDeliveries,
  listEndpoints,
} from './webhooks.queries.ts'
import {
  CreatedWebhook,
  CreateWebhookBody,
  DeletedWebhook,
  DeliveryDetail,
  DeliveryParams,
  DeliveryRecord,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  RecoverBody,
  Recovered,
  RotatedSecret,
  RotateSecretBody,
  UpdateWebhookBody,
  WebhookRecord,
} from './webhooks.schemas.ts'

const MANAGE = { scopes: ['webhook:manage'] } as const
const WRITE = { scopes: ['webhook:manage'], write: true } as const

// One of the caller's endpoints that its credential covers; any other is the 404 of an unknown id.
async function ownEndpoint(db: Db, caller: Caller, id: string): Promise<EndpointRow> {
  const endpoint = await findEndpoint(db, caller, id)
  if (!endpoint) throw notFound()
  return endpoint
}

// One delivery of one of the caller's endpoints, or the same 404 as an unknown id.
async function ownDelivery(db: Db, endpoint: EndpointRow, id: string): Promise<DeliveryRow> {
  const [delivery] = await listDeliveries(db, endpoint, { ids: [id] }, null, 1)
  if (!delivery) throw notFound()
  return delivery
}

/**
 * Webhook endpoints (docs/webhooks.md, scope `webhook:manage`). Each endpoint belongs to the person
 * or integration that created it and is seen only by them; everything it receives is filtered by
 * that owner's access at delivery time.
 */
export function webhookRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  // A write on one of the caller's endpoints.
  const onEndpoint =
    (id: string, command: (w: WriteContext, endpoint: EndpointRow) => Promise<WriteResult>) =>
    async (w: WriteContext) => {
      return command(w, await ownEndpoint(w.trx, w.caller, id))
    }

  return async (app) => {
    app.post(
      '/v1/webhooks',
      {
        schema: {
          operationId: 'createWebhook',
          summary: 'Register a webhook endpoint',
          description:
            'The endpoint receives the chosen events about what its creator may open. The signing secret is in this answer only.',
          tags: ['webhooks'],
          headers: IdempotencyHeaders,
          body: CreateWebhookBody,
          response: { 201: CreatedWebhook },
        },
        config: WRITE,
      },
      (request, reply) =>
        httpWrite(deps, request, reply, async (w) => {
          const created = await createEndpoint(w, request.body)
          return {
            status: 201,
            body: { ...presentEndpoint(created.row, w.now), secret: created.secret },
          }
        }),
    )

    app.get(
      '/v1/webhooks',
      {
        schema: {
          operationId: 'listWebhooks',
          summary: 'List your webhook endpoints',
          tags: ['webhooks'],
          querystring: ListWebhooksQuery,
          response: { 200: Page(WebhookRecord) },
        },
        config: MANAGE,
      },
      async (request) => {
        const caller = authenticated(request)
        const now = deps.clock.now()
        return listResponse(deps.cursors, request, request.query, {
          load: (after, limit) => listEndpoints(deps.db, caller, {}, after, limit),
          position: createdPosition,
          present: (row) => presentEndpoint(row, now),
        })
      },
    )

    app.get(
      '/v1/webhooks/:id',
      {
        schema: {
          operationId: 'getWebhook',
          summary: 'Get a webhook endpoint',
          tags: ['webhooks'],
          params: IdParams,
          response: { 200: WebhookRecord },
        },
        config: MANAGE,
      },
      async (request) => {
        const endpoint = await ownEndpoint(deps.db, authenticated(request), request.params.id)
        return presentEndpoint(endpoint, deps.clock.now())
      },
    )

    app.patch(
      '/v1/webhooks/:id',
      {
        schema: {
          operationId: 'updateWebhook',
          summary: 'Change or re-enable a webhook endpoint',
          tags: ['webhooks'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: UpdateWebhookBody,
          response: { 200: WebhookRecord },
        },
        config: WRITE,
      },
      (request, reply) =>
        httpWrite(
          deps,
          request,
          reply,
          onEndpoint(request.params.id, async (w, endpoint) => ({
            status: 200,
            body: presentEndpoint(await updateEndpoint(w, endpoint, request.body), w.now),
          })),
        ),
    )

    app.delete(
      '/v1/webhooks/:id',
      {
        schema: {
          operationId: 'deleteWebhook',
          summary: 'Delete a webhook endpoint',
          tags: ['webhooks'],
          headers: IdempotencyHeaders,
          params: IdParams,
          response: { 200: DeletedWebhook },
        },
        config: WRITE,
      },
      (request, reply) =>
        httpWrite(
          deps,
          request,
          reply,
          onEndpoint(request.params.id, async (w, endpoint) => {
            await deleteEndpoint(w, endpoint)
            return { status: 200, body: { id: endpoint.id, deleted: true } }
          }),
        ),
    )

    app.post(
      '/v1/webhooks/:id/rotate-secret',
      {
        schema: {
          operationId: 'rotateWebhookSecret',
          summary: "Rotate an endpoint's signing secret",
          description:
            'The previous secret keeps signing `x-service-signature-previous` for the grace period.',
          tags: ['webhooks'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: RotateSecretBody,
          response: { 200: RotatedSecret },
        },
        config: WRITE,
      },
      (request, reply) =>
        httpWrite(
          deps,
          request,
          reply,
          onEndpoint(request.params.id, async (w, endpoint) => {
            const rotated = await rotateSecret(w, endpoint, request.body ?? {})
            return {
              status: 200,
              body: {
                secret: rotated.secret,
                previous_expires_at: rotated.previousExpiresAt?.toISOString() ?? null,
              },
            }
          }),
        ),
    )

    app.get(
      '/v1/webhooks/:id/deliveries',
      {
        schema: {
          operationId: 'listWebhookDeliveries',
          summary: "List an endpoint's deliveries with their attempts",
          tags: ['webhooks'],
          params: IdParams,
          querystring: ListDeliveriesQuery,
          response: { 200: Page(DeliveryRecord) },
        },
        config: MANAGE,
      },
      async (request) => {
        const endpoint = await ownEndpoint(deps.db, authenticated(request), request.params.id)
        const page = await listResponse(deps.cursors, request, request.query, {
          load: (after, limit) => listDeliveries(deps.db, endpoint, request.query, after, limit),
          position: createdPosition,
          present: (row) => row,
        })
        const attempts = await attemptsOf(
          deps.db,
          endpoint.workspace_id,
          page.data.map((row) => row.id),
        )
        return {
          data: page.data.map((row) => presentDelivery(row, attempts.get(row.id) ?? [])),
          next_cursor: page.next_cursor,
        }
      },
    )

    app.get(
      '/v1/webhooks/:id/deliveries/:delivery_id',
      {
        schema: {
          operationId: 'getWebhookDelivery',
          summary: 'Get a delivery with the exact requests sent and the answers',
          tags: ['webhooks'],
          params: DeliveryParams,
          response: { 200: DeliveryDetail },
        },
        config: MANAGE,
      },
      async (request) => {
        const endpoint = await ownEndpoint(deps.db, authenticated(request), request.params.id)
        const delivery = await ownDelivery(deps.db, endpoint, request.params.delivery_id)
        const attempts =
          (await attemptsOf(deps.db, endpoint.workspace_id, [delivery.id])).get(delivery.id) ?? []
        return { ...presentDelivery(delivery, []), attempts: attempts.map(presentAttemptDetail) }
      },
    )

    app.post(
      '/v1/webhooks/:id/deliveries/:delivery_id/replay',
      {
        schema: {
          operationId: 'replayWebhookDelivery',
          summary: 'Send a delivery again',
          description:
            'Same event id (receivers dedupe on it), new attempt number and sent_at, signed with the current secrets; a fresh run of retries.',
          tags: ['webhooks'],
          headers: IdempotencyHeaders,
          params: DeliveryParams,
          response: { 202: DeliveryRecord },
        },
        config: WRITE,
      },
      (request, reply) =>
        httpWrite(
          deps,
          request,
          reply,
          onEndpoint(request.params.id, async (w, endpoint) => {
            const delivery = await ownDelivery(w.trx, endpoint, request.params.delivery_id)
            const row = await replayDelivery(w, endpoint, delivery)
            const attempts = await attemptsOf(w.trx, endpoint.workspace_id, [row.id])
            return { status: 202, body: presentDelivery(row, attempts.get(row.id) ?? []) }
          }),
        ),
    )

    app.post(
      '/v1/webhooks/:id/test',
      {
        schema: {
          operationId: 'sendWebhookTestEvent',
          summary: 'Send a test event to an endpoint',
          description:
            'A `webhook.test` event about the endpoint, signed, sent and logged like any delivery.',
          tags: ['webhooks'],
          headers: IdempotencyHeaders,
          params: IdParams,
          response: { 202: DeliveryRecord },
        },
        config: WRITE,
      },
      (request, reply) =>
        httpWrite(
          deps,
          request,
          reply,
          onEndpoint(request.params.id, async (w, endpoint) => ({
            status: 202,
            body: presentDelivery(await sendTestEvent(w, endpoint), []),
          })),
        ),
    )

    app.post(
      '/v1/webhooks/:id/recover',
      {
        schema: {
          operationId: 'recoverWebhookDeliveries',
          summary: 'Send again every failed or skipped delivery since a time',
          tags: ['webhooks'],
          headers: IdempotencyHeaders,
          params: IdParams,
          body: RecoverBody,
          response: { 202: Recovered },
        },
        config: WRITE,
      },
      (request, reply) =>
        httpWrite(
          deps,
          request,
          reply,
          onEndpoint(request.params.id, async (w, endpoint) => ({
            status: 202,
            body: { replayed: await recoverDeliveries(w, endpoint, new Date(request.body.since)) },
          })),
        ),
    )
  }
}
