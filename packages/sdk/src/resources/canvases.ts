import type { BodyOf, Canvas, ListParams } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'
import { recordOf } from './record.ts'

/** Canvases, by their metadata. */
export class Canvases {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Canvases the token may open, newest first. */
  list(params: ListParams<'listCanvases'> = {}, options?: RequestOptions): PagedList<Canvas> {
    return pagedList(this.#transport, '/v1/canvases', params, options)
  }

  /** One canvas; an id the token may not open, or of another kind, is a NotFoundError. */
  get(id: string, options?: RequestOptions): Promise<WithResponse<Canvas>> {
    return recordOf(this.#transport, 'canvas', id, options)
  }

  /** Creates a canvas (its metadata). */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createCanvas'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Canvas>> {
    return this.#transport.request({ method: 'POST', path: '/v1/canvases', body, write: options })
  }

  /** Changes a canvas's title, summary, project or links. */
  update<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'updateCanvas'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Canvas>> {
    return this.#transport.request({
      method: 'PATCH',
      path: pathOf`/v1/canvases/${id}`,
      body,
      write: options,
    })
  }
}
