import type {
  BodyOf,
  CreatedWebhookEndpoint,
  DeletedWebhookEndpoint,
  ListParams,
  RecoveredDeliveries,
  RotatedWebhookSecret,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
} from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'

/** Your webhook endpoints (scope `webhook:manage`) and their delivery logs. */
export class Webhooks {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Registers an endpoint; the answer's `secret` is shown only here. */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createWebhook'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, CreatedWebhookEndpoint>> {
    return this.#transport.request({ method: 'POST', path: '/v1/webhooks', body, write: options })
  }

  /** Your endpoints, newest first. */
  list(
    params: ListParams<'listWebhooks'> = {},
    options?: RequestOptions,
  ): PagedList<WebhookEndpoint> {
    return pagedList(this.#transport, '/v1/webhooks', params, options)
  }

  /** One endpoint. */
  get(id: string, options?: RequestOptions): Promise<WithResponse<WebhookEndpoint>> {
    return this.#transport.request({ method: 'GET', path: pathOf`/v1/webhooks/${id}`, options })
  }

  /** Changes an endpoint; `status: 'active'` enables a disabled one again. */
  update<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'updateWebhook'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, WebhookEndpoint>> {
    return this.#transport.request({
      method: 'PATCH',
      path: pathOf`/v1/webhooks/${id}`,
      body,
      write: options,
    })
  }

  /** Deletes an endpoint; its waiting deliveries stop. */
  delete<O extends WriteOptions = WriteOptions>(
    id: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, DeletedWebhookEndpoint>> {
    return this.#transport.request({
      method: 'DELETE',
      path: pathOf`/v1/webhooks/${id}`,
      write: options,
    })
  }

  /** A new signing secret; the old one keeps signing for the grace period. */
  rotateSecret<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'rotateWebhookSecret'> = {},
    options: O = {} as O,
  ): Promise<WriteAnswer<O, RotatedWebhookSecret>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/webhooks/${id}/rotate-secret`,
      body,
      write: options,
    })
  }

  /** An endpoint's deliveries with their attempts, newest first. */
  deliveries(
    id: string,
    params: ListParams<'listWebhookDeliveries'> = {},
    options?: RequestOptions,
  ): PagedList<WebhookDelivery> {
    return pagedList(this.#transport, pathOf`/v1/webhooks/${id}/deliveries`, params, options)
  }

  /** One delivery with the exact requests sent and the answers received. */
  delivery(
    id: string,
    deliveryId: string,
    options?: RequestOptions,
  ): Promise<WithResponse<WebhookDeliveryDetail>> {
    return this.#transport.request({
      method: 'GET',
      path: pathOf`/v1/webhooks/${id}/deliveries/${deliveryId}`,
      options,
    })
  }

  /** Sends a delivery again now, with a fresh run of retries. */
  replay<O extends WriteOptions = WriteOptions>(
    id: string,
    deliveryId: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, WebhookDelivery>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/webhooks/${id}/deliveries/${deliveryId}/replay`,
      write: options,
    })
  }

  /** Sends again every failed or skipped delivery since a time. */
  recover<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'recoverWebhookDeliveries'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, RecoveredDeliveries>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/webhooks/${id}/recover`,
      body,
      write: options,
    })
  }

  /** Sends a `webhook.test` event to this endpoint only. */
  test<O extends WriteOptions = WriteOptions>(
    id: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, WebhookDelivery>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/webhooks/${id}/test`,
      write: options,
    })
  }
}
