import type { Db } from '../db/database.ts'
import { type Actor, type Principal, resolvePrincipal } from './principal.ts'

/**
 * Principal sets cached under the workspace's ACL epoch. Every change to who belongs to what bumps
 * the epoch in the same transaction, and every request reads the current epoch, so a revoked
 * membership takes effect on the very next request on every instance; no invalidation messages.
 */
export class PrincipalCache {
  readonly #entries = new Map<string, Principal>()
  readonly #capacity: number

  constructor(capacity = 10_000) {
    this.#capacity = capacity
  }

  /** The principal of an actor at an epoch, computed on a miss. */
  async get(db: Db, actor: Actor, epoch: string): Promise<Principal> {
    const key = `${actor.workspaceId}\u0000${actor.actorId}\u0000${actor.role}\u0000${epoch}`
    const hit = this.#entries.get(key)
    if (hit) {
      // Re-insert to keep the map in least-recently-used order.
      this.#entries.delete(key)
      this.#entries.set(key, hit)
      return hit
    }
    const principal = await resolvePrincipal(db, actor)
    this.#entries.set(key, principal)
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next().value
      if (oldest !== undefined) this.#entries.delete(oldest)
    }
    return principal
  }
}
