import type { BodyOf, Comment } from '../api-types.ts'
import type { Transport, WriteOptions } from '../transport.ts'

/** Comments; read a resource's threads with `wg.resources.comments(id)`. */
export class Comments {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Comments on a resource, or replies to a comment (`parent_id`). */
  create(body: BodyOf<'createComment'>, options: WriteOptions = {}): Promise<Comment> {
    return this.#transport.request({ method: 'POST', path: '/v1/comments', body, write: options })
  }
}
