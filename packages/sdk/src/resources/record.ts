import type { AnyRecord } from '../api-types.ts'
import { NotFoundError } from '../errors.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport } from '../transport.ts'
import { pathOf } from './path.ts'

/** The record type of a kind, such as `Task` for `task`. */
export type RecordOf<K extends AnyRecord['type']> = Extract<AnyRecord, { type: K }>

/**
 * A record of one kind by id, through `GET /v1/resources/{id}` (the API's one read by id). An id
 * of another kind is a NotFoundError, as an id the token may not open is: there is no such task.
 */
export async function recordOf<K extends AnyRecord['type']>(
  transport: Transport,
  type: K,
  id: string,
  options: RequestOptions | undefined,
): Promise<WithResponse<RecordOf<K>>> {
  const record = await transport.request<AnyRecord>({
    method: 'GET',
    path: pathOf`/v1/resources/${id}`,
    options,
  })
  if (record.type !== type) {
    const meta = record.lastResponse
    throw new NotFoundError({
      status: 404,
      code: 'not_found',
      title: 'Not found',
      detail: `${id} is a ${record.type}, not a ${type}`,
      requestId: meta.requestId,
      headers: meta.headers,
      body: undefined,
    })
  }
  return record as WithResponse<RecordOf<K>>
}
