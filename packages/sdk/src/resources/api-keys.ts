import type { BodyOf, IssuedApiKey, RotatedApiKey } from '../api-types.ts'
import type { Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pathOf } from './path.ts'

/** API keys (scope `token:manage`); list and revoke them with `wg.tokens`. */
export class ApiKeys {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Issues an API key for a person; the answer's `token` is the secret, shown only here. */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createApiKey'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, IssuedApiKey>> {
    return this.#transport.request({ method: 'POST', path: '/v1/api-keys', body, write: options })
  }

  /** A new secret for a key; the old one keeps working for the grace period asked. */
  rotate<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'rotateApiKey'> = {},
    options: O = {} as O,
  ): Promise<WriteAnswer<O, RotatedApiKey>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/api-keys/${id}/rotate`,
      body,
      write: options,
    })
  }
}
