import type { BodyOf, Canvas, ListParams } from '../api-types.ts'
import { PagedList } from '../pages.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pathOf } from './path.ts'

/** Canvases, by their metadata. */
export class Canvases {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Canvases the token may open, newest first. */
  list(params: ListParams<'listCanvases'> = {}, options?: RequestOptions): PagedList<Canvas> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: '/v1/canvases',
        query: { ...params, cursor },
        options,
      }),
    )
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
