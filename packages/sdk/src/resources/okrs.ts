import type { BodyOf, CheckinCreated, KeyResultWritten, ListParams, Okr } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'
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

  /** Creates an objective, owned by you unless told otherwise, with its key results. */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createOkr'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Okr>> {
    return this.#transport.request({ method: 'POST', path: '/v1/okrs', body, write: options })
  }

  /** Changes an objective's fields; `status: 'closed'` closes it, `'open'` reopens it. */
  update<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'updateOkr'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Okr>> {
    return this.#transport.request({
      method: 'PATCH',
      path: pathOf`/v1/okrs/${id}`,
      body,
      write: options,
    })
  }

  /** Adds a key result to an objective; the answer has the objective's new progress. */
  addKeyResult<O extends WriteOptions = WriteOptions>(
    okrId: string,
    body: BodyOf<'createKeyResult'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, KeyResultWritten>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/okrs/${okrId}/key-results`,
      body,
      write: options,
    })
  }

  /** Changes a key result's title, start, target or unit; the answer has the new progress. */
  updateKeyResult<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'updateKeyResult'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, KeyResultWritten>> {
    return this.#transport.request({
      method: 'PATCH',
      path: pathOf`/v1/key-results/${id}`,
      body,
      write: options,
    })
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
