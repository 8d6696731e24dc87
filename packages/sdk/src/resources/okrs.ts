import type { BodyOf, CheckinCreated, ListParams, Okr } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { recordOf } from './record.ts'

/** Objectives with their key results, and check-ins. */
export class Okrs {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Objectives the token may open. */
  list(params: ListParams<'listOkrs'> = {}, options?: RequestOptions): PagedList<Okr> {
    return pagedList(this.#transport, '/v1/okrs', params, options)
  }

  /** One objective with its key results; another kind of id is a NotFoundError. */
  get(id: string, options?: RequestOptions): Promise<WithResponse<Okr>> {
    return recordOf(this.#transport, 'okr', id, options)
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
