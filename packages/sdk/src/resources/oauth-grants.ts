import type { ListParams, OAuthGrant } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'

/** The OAuth grants of the workspace: which app may act for whom (scope `token:manage`). */
export class OAuthGrants {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Grants, newest first; `client_id` keeps one app's. */
  list(
    params: ListParams<'listOAuthGrants'> = {},
    options?: RequestOptions,
  ): PagedList<OAuthGrant> {
    return pagedList(this.#transport, '/v1/oauth-grants', params, options)
  }

  /** Revokes a grant: its access and refresh tokens stop working at once. */
  revoke<O extends WriteOptions = WriteOptions>(
    id: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, OAuthGrant>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/oauth-grants/${id}/revoke`,
      write: options,
    })
  }
}
