import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { DeliveryStatus } from '../db/tables/webhook.table.ts'
import type { ClaimedDelivery } from './delivery-queue.ts'
import { disableEndpoint, recordEndpointHealth, successNeedsRecording } from './endpoint-health.ts'
import type { AttemptOutcome } from './retry-policy.ts'

// Acknowledgements written by one statement at most; more wait for the next one.
const ACKS_PER_STATEMENT = 500

/** The exact request sent and what came back, as the attempt log keeps it. */
export interface AttemptRecord {
  trigger: 'auto' | 'replay'
  startedAt: Date
  durationMs: number
  url: string
  requestHeaders: Record<string, string>
  requestBody: string
  responseStatus: number | null
  responseBody: string | null
  errorKind: string | null
}

/** How one claimed delivery ended this time: its new state, and its attempt if one was made. */
export interface Ack {
  claimed: ClaimedDelivery
  status: DeliveryStatus
  lastError: string | null
  nextAttemptAt: Date | null
  now: Date
  attempt: AttemptRecord | null
  /** What the attempt tells about the endpoint's health (null: nothing was sent). */
  outcome: AttemptOutcome | null
}

interface Waiting {
  ack: Ack
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Records finished deliveries in groups: while one statement is being written, the deliveries
 * that finish queue up and go together in the next, so a busy dispatcher commits once per group
 * rather than once per delivery, and an idle one writes at once. Each statement logs the attempts
 * and ends the leases atomically, fenced by each lease; `record` resolves once it has committed.
 */
export class AckWriter {
  readonly #db: Db
  #queue: Waiting[] = []
  #flushing = false

  constructor(db: Db) {
    this.#db = db
  }

  /** Queues one acknowledgement; resolves when it is written (or its lease turned out lost). */
  record(ack: Ack): Promise<void> {
    const { promise, resolve, reject } = Promise.withResolvers<void>()
    this.#queue.push({ ack, resolve, reject })
    if (!this.#flushing) {
      this.#flushing = true
      void this.#flush()
    }
    return promise
  }

  async #flush(): Promise<void> {
    // Sends that finished in the same turn of the event loop go in the same statement.
    await new Promise((done) => setImmediate(done))
    while (this.#queue.length > 0) {
      const group = this.#queue.splice(0, ACKS_PER_STATEMENT)
      try {
        await writeAcks(
          this.#db,
          group.map((waiting) => waiting.ack),
        )
        for (const waiting of group) waiting.resolve()
      } catch (error) {
        for (const waiting of group) waiting.reject(error)
      }
    }
    this.#flushing = false
  }
}

/** Logs the attempts and ends the leases in one statement, then records what changed in health. */
export async function writeAcks(db: Db, acks: Ack[]): Promise<void> {
  const column = <T>(pick: (ack: Ack) => T) => acks.map(pick)
  const settled = await sql<{ id: string }>`
    with input as (
      select * from unnest(
        ${column((a) => a.claimed.workspaceId)}::text[], ${column((a) => a.claimed.id)}::text[],
        ${column((a) => a.claimed.lock)}::text[], ${column((a) => a.status)}::text[],
        ${column((a) => a.lastError)}::text[], ${column((a) => a.nextAttemptAt)}::timestamptz[],
        ${column((a) => a.now)}::timestamptz[], ${column((a) => a.claimed.attempt)}::int[],
        ${column((a) => a.attempt?.trigger ?? null)}::text[],
        ${column((a) => a.attempt?.startedAt ?? null)}::timestamptz[],
        ${column((a) => a.attempt?.durationMs ?? null)}::int[],
        ${column((a) => a.attempt?.url ?? null)}::text[],
        ${column((a) => (a.attempt ? JSON.stringify(a.attempt.requestHeaders) : null))}::text[],
        ${column((a) => a.attempt?.requestBody ?? null)}::text[],
        ${column((a) => a.attempt?.responseStatus ?? null)}::int[],
        ${column((a) => a.attempt?.responseBody ?? null)}::text[],
        ${column((a) => a.attempt?.errorKind ?? null)}::text[]
      ) as i(workspace_id, id, lock, status, last_error, next_attempt_at, now, attempt, trigger,
        started_at, duration_ms, url, request_headers, request_body, response_status,
        response_body, error_kind)
    ),
    attempt as (
      insert into webhook_attempts (workspace_id, delivery_id, attempt, trigger, started_at,
        duration_ms, url, request_headers, request_body, response_status, response_body, error_kind)
      select workspace_id, id, attempt, trigger, started_at, duration_ms, url,
        request_headers::jsonb, request_body, response_status, response_body, error_kind
      from input where trigger is not null
      on conflict do nothing
    )
    update webhook_deliveries d
    set status = i.status, last_error = i.last_error, next_attempt_at = i.next_attempt_at,
      locked_by = null, locked_until = null, updated_at = i.now
    from input i
    where d.workspace_id = i.workspace_id and d.id = i.id
      and d.status = 'in_flight' and d.locked_by = i.lock
    returning d.id`.execute(db)
  // A lost lease: the attempt stays in the log, but the state belongs to the new holder.
  const held = new Set(settled.rows.map((row) => row.id))
  await recordHealth(
    db,
    acks.filter((ack) => ack.outcome !== null && held.has(ack.claimed.id)),
  )
}

// Per endpoint, once per group: a 410 disables it; otherwise its latest outcome is what counts
// (a success after failures clears them), and a success is written only when it changes anything.
async function recordHealth(db: Db, acks: Ack[]): Promise<void> {
  const latest = new Map<string, { ack: Ack; gone: boolean }>()
  for (const ack of acks) {
    const key = `${ack.claimed.workspaceId}\u0000${ack.claimed.endpointId}`
    const gone = (latest.get(key)?.gone ?? false) || ack.outcome === 'gone'
    latest.set(key, { ack, gone })
  }
  for (const { ack, gone } of latest.values()) {
    const { workspaceId, endpointId, row } = ack.claimed
    if (gone) await disableEndpoint(db, workspaceId, endpointId, 'receiver_gone', ack.now)
    else if (ack.outcome === 'failed' || successNeedsRecording(row, ack.now))
      await recordEndpointHealth(db, workspaceId, endpointId, ack.outcome === 'succeeded', ack.now)
  }
}
