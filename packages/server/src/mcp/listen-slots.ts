/** Who holds an open `subscriptions/listen` stream. */
export interface ListenHolder {
  readonly credential: string
  /** The person or integration the credential acts as. */
  readonly actor: string
  readonly workspace: string
}

/** How many streams each holder may keep open at once. */
export interface ListenLimits {
  readonly perCredential: number
  readonly perActor: number
  readonly perWorkspace: number
  readonly perProcess: number
}

/**
 * The open change streams of one process, counted per credential, per person (or integration),
 * per workspace and in all (docs/mcp.md, "Following changes"). Each stream holds a connection and
 * a waiting read of the feed, so the process can hold only so many; limits below the process's
 * own mean that no key, person or workspace can take them all: keys are free to make, so a limit
 * per key alone would let one person refuse everyone else on the instance.
 */
export class ListenSlots {
  readonly #limits: ListenLimits
  readonly #open = new Set<ListenHolder>()

  constructor(limits: ListenLimits) {
    this.#limits = limits
  }

  /** A slot for the holder, released by the function returned; null when a limit is reached. */
  take(holder: ListenHolder): (() => void) | null {
    let credential = 0
    let actor = 0
    let workspace = 0
    for (const open of this.#open) {
      if (open.credential === holder.credential) credential++
      if (open.workspace === holder.workspace) {
        workspace++
        if (open.actor === holder.actor) actor++
      }
    }
    const limits = this.#limits
    if (
      credential >= limits.perCredential ||
      actor >= limits.perActor ||
      workspace >= limits.perWorkspace ||
      this.#open.size >= limits.perProcess
    )
      return null
    const slot = { ...holder }
    this.#open.add(slot)
    return () => void this.#open.delete(slot)
  }

  /** How many streams are open. */
  get size(): number {
    return this.#open.size
  }
}
