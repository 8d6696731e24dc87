import type {
  BodyOf,
  CreatedWebhookEndpoint,
  ListParams,
  RotatedWebhookSecret,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
} from '../api-types.ts'
import type { components } from '../generated/openapi.ts'
import { PagedList } from '../pages.ts'
import type { RequestOptions, Transport, WriteOptions } from '../transport.ts'
import { pathOf } from './path.ts'

/** Your webhook endpoints (scope `webhook:manage`) and their delivery logs. */
export class Webhooks {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Registers an endpoint; the answer's `secret` is shown only here. */
  create(
    body: BodyOf<'createWebhook'>,
    options: WriteOptions = {},
  ): Promise<CreatedWebhookEndpoint> {
    return this.#transport.request({ method: 'POST', path: '/v1/webhooks', body, write: options })
  }

  /** Your endpoints, newest first. */
  list(
    params: ListParams<'listWebhooks'> = {},
    options?: RequestOptions,
  ): PagedList<WebhookEndpoint> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: '/v1/webhooks',
        query: { ...params, cursor },
        options,
      }),
    )
  }

  /** One endpoint. */
  get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.#transport.request({ method: 'GET', path: pathOf`/v1/webhooks/${id}`, options })
  }

  /** Changes an endpoint; `status: 'active'` enables a disabled one again. */
  update(
    id: string,
    body: BodyOf<'updateWebhook'>,
    options: WriteOptions = {},
  ): Promise<WebhookEndpoint> {
    return this.#transport.request({
      method: 'PATCH',
      path: pathOf`/v1/webhooks/${id}`,
      body,
      write: options,
    })
  }

  /** Deletes an endpoint; its waiting deliveries stop. */
  delete(
    id: string,
    options: WriteOptions = {},
  ): Promise<components['schemas']['DeletedWebhookEndpoint']> {
    return this.#transport.request({
      method: 'DELETE',
      path: pathOf`/v1/webhooks/${id}`,
      write: options,
    })
  }

  /** A new signing secret; the old one keeps signing for the grace period. */
  rotateSecret(
    id: string,
    body: BodyOf<'rotateWebhookSecret'> = {},
    options: WriteOptions = {},
  ): Promise<RotatedWebhookSecret> {
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
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: pathOf`/v1/webhooks/${id}/deliveries`,
        query: { ...params, cursor },
        options,
      }),
    )
  }

  /** One delivery with the exact requests sent and the answers received. */
  delivery(
    id: string,
    deliveryId: string,
    options?: RequestOptions,
  ): Promise<WebhookDeliveryDetail> {
    return this.#transport.request({
      method: 'GET',
      path: pathOf`/v1/webhooks/${id}/deliveries/${deliveryId}`,
      options,
    })
  }

  /** Sends a delivery again now, with a fresh run of retries. */
  replay(id: string, deliveryId: string, options: WriteOptions = {}): Promise<WebhookDelivery> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/webhooks/${id}/deliveries/${deliveryId}/replay`,
      write: options,
    })
  }

  /** Sends again every failed or skipped delivery since a time. */
  recover(
    id: string,
    body: BodyOf<'recoverWebhookDeliveries'>,
    options: WriteOptions = {},
  ): Promise<components['schemas']['RecoveredDeliveries']> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/webhooks/${id}/recover`,
      body,
      write: options,
    })
  }

  /** Sends a `webhook.test` event to this endpoint only. */
  test(id: string, options: WriteOptions = {}): Promise<WebhookDelivery> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/webhooks/${id}/test`,
      write: options,
    })
  }
}
