import type { Db } from '../../db/database.ts'
import { numberCommittedChanges } from '../../writes/change-positions.ts'

/** The head of a workspace's feed as a caught-up read saw it, and the pulse count it read at. */
interface SeenHead {
  position: number
  pulses: number
}

/**
 * What this process has learnt of each workspace's feed from its own reads: the head the last
 * caught-up read saw, and how far numbering has gone. Lets waiting polls share work: after a
 * pulse, one numbering pass serves every poll it woke, and a poll that asks again from the head
 * with no pulse since has nothing to read.
 */
export class FeedHeads {
  readonly #seen = new Map<string, SeenHead>()
  // The pulse count each workspace's last completed numbering pass started at.
  readonly #numbered = new Map<string, number>()
  readonly #numbering = new Map<string, { pulses: number; pass: Promise<void> }>()

  /** A read that started at `pulses` caught up at `position`: the head then. */
  saw(workspaceId: string, position: number, pulses: number): void {
    const seen = this.#seen.get(workspaceId)
    if (!seen || pulses >= seen.pulses) this.#seen.set(workspaceId, { position, pulses })
  }

  /** The last head seen of the workspace, if any. */
  head(workspaceId: string): number | undefined {
    return this.#seen.get(workspaceId)?.position
  }

  /** Whether `position` is the head a read saw with the pulse count still at `pulses`. */
  isHead(workspaceId: string, position: number, pulses: number): boolean {
    const seen = this.#seen.get(workspaceId)
    return seen !== undefined && seen.position === position && seen.pulses === pulses
  }

  /**
   * Numbers what committed before the workspace's pulse count reached `pulses` (read just before
   * the call): at once if a pass that started at that count or later has completed, by waiting
   * for one under way, or by a pass of its own. Every pulse is raised after the commit it
   * announces, so such a pass numbers it.
   */
  async numberUpTo(db: Db, workspaceId: string, pulses: number): Promise<void> {
    if ((this.#numbered.get(workspaceId) ?? -1) >= pulses) return
    const running = this.#numbering.get(workspaceId)
    if (running && running.pulses >= pulses) return running.pass
    const pass = numberCommittedChanges(db, workspaceId).then(() => {
      this.#numbered.set(workspaceId, Math.max(pulses, this.#numbered.get(workspaceId) ?? -1))
    })
    const entry = { pulses, pass }
    this.#numbering.set(workspaceId, entry)
    try {
      await pass
    } finally {
      if (this.#numbering.get(workspaceId) === entry) this.#numbering.delete(workspaceId)
    }
  }
}
