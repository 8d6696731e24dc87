import type { BodyOf, CheckinCreated, ListParams, Okr } from '../api-types.ts'
import { PagedList } from '../pages.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'

/** Objectives with their key results, and check-ins. */
export class Okrs {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Objectives the token may open. */
  list(params: ListParams<'listOkrs'> = {}, options?: RequestOptions): PagedList<Okr> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: '/v1/okrs',
        query: { ...params, cursor },
        options,
      }),
    )
  }

  /** Logs a check-in on a key result; the answer has the objective's new progress. */
  checkin<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createCheckin'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, CheckinCreated>> {
    return this.#transport.request({
      method: 'POST',
      path: '/v1/okr/checkins',
      body,
      write: options,
    })
  }
}
