import type { BodyOf, CreatedInvitation, Invitation, ListParams } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'

/** Invitations to the workspace (owners and admins, scope `people:write`). */
export class Invitations {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Invites an email with a role; the answer holds the one-time link, shown only there. */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createInvitation'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, CreatedInvitation>> {
    return this.#transport.request({
      method: 'POST',
      path: '/v1/invitations',
      body,
      write: options,
    })
  }

  /** The pending invitations, newest first. */
  list(
    params: ListParams<'listInvitations'> = {},
    options?: RequestOptions,
  ): PagedList<Invitation> {
    return pagedList(this.#transport, '/v1/invitations', params, options)
  }

  /** Revokes an invitation: its link stops working. */
  revoke<O extends WriteOptions = WriteOptions>(
    id: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Invitation>> {
    return this.#transport.request({
      method: 'DELETE',
      path: pathOf`/v1/invitations/${id}`,
      write: options,
    })
  }
}
