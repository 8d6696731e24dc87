import type { BodyOf, Comment } from '../api-types.ts'
import type { Transport, WriteAnswer, WriteOptions } from '../transport.ts'

/** Comments; read a resource's threads with `wg.resources.comments(id)`. */
export class Comments {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Comments on a resource, or replies to a comment (`parent_id`). */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createComment'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Comment>> {
    return this.#transport.request({ method: 'POST', path: '/v1/comments', body, write: options })
  }
}
