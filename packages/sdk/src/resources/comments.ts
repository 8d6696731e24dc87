import type { BodyOf, Comment } from '../api-types.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { recordOf } from './record.ts'

/** Comments; read a resource's threads with `wg.resources.comments(id)`. */
export class Comments {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** One comment; an id the token may not open, or of another kind, is a NotFoundError. */
  get(id: string, options?: RequestOptions): Promise<WithResponse<Comment>> {
    return recordOf(this.#transport, 'comment', id, options)
  }

  /** Comments on a resource, or replies to a comment (`parent_id`). */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createComment'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Comment>> {
    return this.#transport.request({ method: 'POST', path: '/v1/comments', body, write: options })
  }
}
