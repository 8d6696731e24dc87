import type { Workspace as WorkspaceRecord } from '../api-types.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport } from '../transport.ts'

/** The workspace the token belongs to. */
export class WorkspaceResource {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** The workspace record. */
  get(options?: RequestOptions): Promise<WithResponse<WorkspaceRecord>> {
    return this.#transport.request({ method: 'GET', path: '/v1/workspace', options })
  }
}
