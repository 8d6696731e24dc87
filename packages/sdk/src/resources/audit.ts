import type { AuditEntry, ListParams } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { RequestOptions, Transport } from '../transport.ts'
import { pagedList } from './list.ts'

/** The audit log (scope `audit:read`): who did what, with which token. */
export class Audit {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Audit entries, newest first, filtered by token, actor, resource, action and time. */
  list(
    params: ListParams<'listAuditEntries'> = {},
    options?: RequestOptions,
  ): PagedList<AuditEntry> {
    return pagedList(this.#transport, '/v1/audit', params, options)
  }
}
