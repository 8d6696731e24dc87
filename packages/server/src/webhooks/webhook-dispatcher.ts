import { setTimeout as sleep } from 'node:timers/promises'
import type { Dispatcher } from 'undici'
import type { AppDeps } from '../app-deps.ts'
import { deliverOne, endpointKey, type OwnerView, viewsOfOwners } from './deliver-one.ts'
import { AckWriter } from './delivery-acks.ts'
import { claimDue } from './delivery-queue.ts'
import { ATTEMPT_TIMEOUT_MS } from './delivery-sender.ts'
import { fanOutEvents } from './fan-out.ts'
import { createGuardedAgent } from './ssrf-guard.ts'

// How soon to look again when due work was held by others (not how long an idle queue waits).
const BACKLOG_POLL_MS = 25

/** How a dispatcher runs; the defaults suit one process beside the API. */
export interface DispatcherOptions {
  /** Requests in flight at once from this process. */
  maxInFlight?: number
  /** Requests in flight at once to one endpoint, across every dispatcher. */
  perEndpoint?: number
  /** How long an idle dispatcher waits before looking for work again. */
  pollMs?: number
  /** The HTTP client (tests pass one whose DNS answers they choose); guarded by default. */
  agent?: Dispatcher
  /** Source of retry jitter, in [0, 1). */
  random?: () => number
  /** One attempt's deadline (15 s). */
  timeoutMs?: number
  /** Where a failed round is reported (the database was unreachable, say). */
  onError?: (error: unknown) => void
}

/**
 * Moves events from the outbox to receivers. Any number of dispatchers may run on one database
 * (in-process beside the API, or `workgraph worker`): fan-out and claims use SKIP LOCKED and
 * leases, so no attempt is made twice while its lease holds. A dispatcher tops itself up whenever
 * a send finishes, and polls when idle.
 */
export class WebhookDispatcher {
  readonly #deps: AppDeps
  readonly #agent: Dispatcher
  readonly #ownsAgent: boolean
  readonly #maxInFlight: number
  readonly #perEndpoint: number
  readonly #pollMs: number
  readonly #random: () => number
  readonly #timeoutMs: number
  readonly #onError: (error: unknown) => void
  readonly #acks: AckWriter
  readonly #inFlight = new Set<Promise<void>>()
  #running = false
  #loop: Promise<void> | null = null
  #wake: (() => void) | null = null
  // Whether the outbox may hold events: set by a nudge (a commit), by a full fan-out batch, and
  // by each poll; a send finishing only frees a slot, which needs no look at the outbox.
  #outboxDue = true
  #lastFanOut = 0

  constructor(deps: AppDeps, options: DispatcherOptions = {}) {
    this.#deps = deps
    this.#ownsAgent = options.agent === undefined
    this.#agent =
      options.agent ?? createGuardedAgent({ allowLoopback: deps.config.webhooksAllowHttpLoopback })
    this.#maxInFlight = options.maxInFlight ?? 64
    this.#perEndpoint = options.perEndpoint ?? 10
    this.#pollMs = options.pollMs ?? 500
    this.#random = options.random ?? Math.random
    this.#timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
    this.#onError = options.onError ?? (() => {})
    this.#acks = new AckWriter(deps.db)
  }

  /** Starts the background loop. */
  start(): void {
    if (this.#running) return
    this.#running = true
    this.#loop = this.#run()
  }

  /** Asks an idle dispatcher to look for work now (after a write, say). */
  nudge(): void {
    this.#outboxDue = true
    this.#wake?.()
  }

  /**
   * One round, for tests and `workgraph worker --once`: fans out every pending event and sends
   * everything due, repeatedly, until nothing is due; waits for every request it started.
   */
  async drain(): Promise<void> {
    for (;;) {
      while ((await fanOutEvents(this.#deps)) > 0) {}
      const { started } = await this.#claimAndSend()
      await Promise.all([...this.#inFlight])
      if (started === 0) return
    }
  }

  /** Stops claiming, waits up to `graceMs` for requests in flight, then closes the client. */
  async stop(graceMs = 20_000): Promise<void> {
    this.#running = false
    this.nudge()
    await this.#loop
    await Promise.race([
      Promise.allSettled([...this.#inFlight]),
      sleep(graceMs, undefined, { ref: false }),
    ])
    if (this.#ownsAgent) await this.#agent.close()
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let busy = false
      let backlog = false
      try {
        // A notification can be lost (a dropped connection): a busy loop still looks every poll.
        if (this.#outboxDue || performance.now() - this.#lastFanOut > this.#pollMs) {
          this.#outboxDue = false
          this.#lastFanOut = performance.now()
          busy = (await fanOutEvents(this.#deps)) > 0
          // A full batch may have left more behind.
          if (busy) this.#outboxDue = true
        }
        const round = await this.#claimAndSend()
        busy = round.started > 0 || busy
        backlog = round.backlog
      } catch (error) {
        this.#outboxDue = true
        this.#onError(error)
      }
      // Due work that someone else holds frees up soon; an empty queue waits for a nudge.
      if (!busy && this.#running) await this.#idle(backlog ? BACKLOG_POLL_MS : this.#pollMs)
    }
  }

  // Waits for a nudge, a finished send (a slot came free) or the poll interval.
  async #idle(ms: number): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>()
    this.#wake = resolve
    const timer = setTimeout(resolve, ms)
    await promise
    clearTimeout(timer)
    this.#wake = null
  }

  async #claimAndSend(): Promise<{ started: number; backlog: boolean }> {
    const { claims, backlog } = await claimDue(
      this.#deps,
      this.#maxInFlight - this.#inFlight.size,
      this.#perEndpoint,
    )
    const context = {
      deps: this.#deps,
      agent: this.#agent,
      acks: this.#acks,
      random: this.#random,
      timeoutMs: this.#timeoutMs,
    }
    // Each claim holds its slot from now on; what the owners may open is read once for them all.
    const views = viewsOfOwners(this.#deps, claims)
    for (const claim of claims) {
      const sending: Promise<void> = views
        .then((view) => deliverOne(context, claim, view.get(endpointKey(claim)) as OwnerView))
        .catch((error: unknown) => this.#onError(error))
        .finally(() => {
          this.#inFlight.delete(sending)
          this.#wake?.()
        })
      this.#inFlight.add(sending)
    }
    return { started: claims.length, backlog }
  }
}
