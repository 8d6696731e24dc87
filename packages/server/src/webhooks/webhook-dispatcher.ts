import { setTimeout as sleep } from 'node:timers/promises'
import type { Dispatcher } from 'undici'
import type { AppDeps } from '../app-deps.ts'
import { deliverOne, endpointKey, type OwnerView, viewsOfOwners } from './deliver-one.ts'
import { AckWriter } from './delivery-acks.ts'
import { claimDue, type EndpointRef } from './delivery-queue.ts'
import { ATTEMPT_TIMEOUT_MS } from './delivery-sender.ts'
import { fanOutEvents } from './fan-out.ts'
import { createGuardedAgent } from './ssrf-guard.ts'

// How soon to look again when due work was held by others (not how long an idle queue waits).
const BACKLOG_POLL_MS = 25

/**
 * How long an attempt holds one of the dispatcher's slots. A receiver that has not answered by
 * then is slow: its attempt goes on (until its timeout) on a socket of its own, its slot goes to
 * others, and its endpoint is passed over until that attempt ends (docs/webhooks.md, "Slow
 * receivers").
 */
export const SLOT_HOLD_MS = 1000

// How long an endpoint whose attempt timed out gets one attempt at a time from this dispatcher.
const SLOW_MEMORY_MS = 60_000

// The share of the slots any endpoint may take; the rest is for endpoints with no young attempt.
const SHARED_FRACTION = 0.75

// Open attempts per slot at most, slow ones included: what bounds sockets and memory.
const OPEN_PER_SLOT = 4

/** An attempt in flight: whose it is and when it started. */
interface Attempt {
  endpoint: string
  ref: EndpointRef
  startedAt: number
}

/** How a dispatcher runs; the defaults suit one process beside the API. */
export interface DispatcherOptions {
  /**
   * Slots: attempts this dispatcher starts and waits on at once. An attempt gives its slot back
   * once it has run SLOT_HOLD_MS; at most four times as many may be open in all.
   */
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
  readonly #inFlight = new Map<Promise<void>, Attempt>()
  // Endpoints whose last attempt timed out, and until when that is remembered.
  readonly #slowUntil = new Map<string, number>()
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
      await Promise.all([...this.#inFlight.keys()])
      if (started === 0) return
    }
  }

  /** Stops claiming, waits up to `graceMs` for requests in flight, then closes the client. */
  async stop(graceMs = 20_000): Promise<void> {
    this.#running = false
    this.nudge()
    await this.#loop
    await Promise.race([
      Promise.allSettled([...this.#inFlight.keys()]),
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

  // Slots are held by attempts younger than SLOT_HOLD_MS; every open attempt counts against the
  // cap on sockets. Endpoints slow now (an attempt past SLOT_HOLD_MS), or lately (an attempt
  // timed out) while they still have one open, are passed over. And the last quarter of the slots
  // goes only to endpoints with no young attempt here: however many receivers never answer,
  // they cannot take every slot, even in the second before they are known to be slow.
  #room(): { capacity: number; passOver: EndpointRef[] } {
    const now = performance.now()
    for (const [endpoint, until] of this.#slowUntil)
      if (until <= now) this.#slowUntil.delete(endpoint)
    let young = 0
    const open = new Map<string, { ref: EndpointRef; oldest: number; newest: number }>()
    for (const attempt of this.#inFlight.values()) {
      if (now - attempt.startedAt < SLOT_HOLD_MS) young++
      const seen = open.get(attempt.endpoint) ?? {
        ref: attempt.ref,
        oldest: attempt.startedAt,
        newest: attempt.startedAt,
      }
      seen.oldest = Math.min(seen.oldest, attempt.startedAt)
      seen.newest = Math.max(seen.newest, attempt.startedAt)
      open.set(attempt.endpoint, seen)
    }
    const shared = Math.floor(this.#maxInFlight * SHARED_FRACTION)
    const reserveOnly = young >= shared
    const passOver: EndpointRef[] = []
    for (const [endpoint, { ref, oldest, newest }] of open) {
      const slow = now - oldest >= SLOT_HOLD_MS || this.#slowUntil.has(endpoint)
      const holdsYoung = now - newest < SLOT_HOLD_MS
      if (slow || (reserveOnly && holdsYoung)) passOver.push(ref)
    }
    const slots = (reserveOnly ? this.#maxInFlight : shared) - young
    const sockets = this.#maxInFlight * OPEN_PER_SLOT - this.#inFlight.size
    return { capacity: Math.min(slots, sockets), passOver }
  }

  async #claimAndSend(): Promise<{ started: number; backlog: boolean }> {
    const room = this.#room()
    const { claims, backlog } = await claimDue(
      this.#deps,
      room.capacity,
      this.#perEndpoint,
      room.passOver,
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
      const endpoint = endpointKey(claim)
      const startedAt = performance.now()
      // When the attempt stops holding its slot, the loop may fill that slot.
      const slotFreed = setTimeout(() => this.#wake?.(), SLOT_HOLD_MS)
      slotFreed.unref()
      const sending: Promise<void> = views
        .then((view) => deliverOne(context, claim, view.get(endpoint) as OwnerView))
        .catch((error: unknown) => this.#onError(error))
        .finally(() => {
          clearTimeout(slotFreed)
          // A timeout is remembered: the receiver may never answer. A slow answer is not.
          const took = performance.now() - startedAt
          if (took >= this.#timeoutMs)
            this.#slowUntil.set(endpoint, performance.now() + SLOW_MEMORY_MS)
          else this.#slowUntil.delete(endpoint)
          this.#inFlight.delete(sending)
          this.#wake?.()
        })
      this.#inFlight.set(sending, {
        endpoint,
        ref: { workspaceId: claim.workspaceId, endpointId: claim.endpointId },
        startedAt,
      })
    }
    return { started: claims.length, backlog }
  }
}
