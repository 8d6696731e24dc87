import type { Me as MeRecord } from '../api-types.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport } from '../transport.ts'

/** Who the token acts as, and what it may do. */
export class MeResource {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** The token's actor, workspace, scopes and fence; any token may ask. */
  get(options?: RequestOptions): Promise<WithResponse<MeRecord>> {
    return this.#transport.request({ method: 'GET', path: '/v1/me', options })
  }
}
