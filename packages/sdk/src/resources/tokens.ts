import type { ListParams, Token } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'

/** The workspace's API keys and workspace tokens (scope `token:manage`); never their secrets. */
export class Tokens {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** API keys and workspace tokens, filtered by `type`, `owner_id` and `status`. */
  list(params: ListParams<'listTokens'> = {}, options?: RequestOptions): PagedList<Token> {
    return pagedList(this.#transport, '/v1/tokens', params, options)
  }

  /** Revokes an API key or workspace token at once; revoking a revoked one changes nothing. */
  revoke<O extends WriteOptions = WriteOptions>(
    id: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Token>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/tokens/${id}/revoke`,
      write: options,
    })
  }
}
