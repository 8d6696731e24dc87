import type { HealthStatus } from '../api-types.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport } from '../transport.ts'

/** The server's health checks; they need no token. */
export class Health {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Liveness: the process answers. */
  liveness(options?: RequestOptions): Promise<WithResponse<HealthStatus>> {
    return this.#transport.request({ method: 'GET', path: '/healthz', auth: 'none', options })
  }

  /** Readiness: the process can serve (its database answers); a 503 when it cannot. */
  readiness(options?: RequestOptions): Promise<WithResponse<HealthStatus>> {
    return this.#transport.request({ method: 'GET', path: '/readyz', auth: 'none', options })
  }
}
