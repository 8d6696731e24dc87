import type { Caller } from '../access/caller.ts'
import type { AuditActor } from '../audit/audit-writer.ts'
import type { StoredResponse } from './idempotency-store.ts'
import type { WriteContext } from './write-context.ts'

/*
 * What a write is, whichever way it runs (docs/api.md, "Writes"): for real through `runWrite`,
 * or as a dry run through `dryRunWrite`.
 */

/** A command's answer: its status and the record it returns. */
export interface WriteResult {
  status: 200 | 201 | 202
  body: unknown
}

/** A command: its whole change, written through the context's transaction. */
export type Command = (context: WriteContext) => Promise<WriteResult>

/**
 * One write as any transport (HTTP, MCP) hands it over: who writes, the retry key, and how the
 * answer is serialized. Nothing in it depends on the transport's request or reply objects.
 */
export interface WriteRequest {
  readonly caller: Caller
  readonly actor: AuditActor
  /** The Idempotency-Key, already checked for form; null without one. */
  readonly idempotencyKey: string | null
  /** What makes two requests "the same" for a key (see `requestFingerprint`). */
  readonly fingerprint: string
  /** Names the operation (a route or a tool) for the write hooks. */
  readonly operation: string
  /**
   * A dry run (docs/api.md, "Dry runs"): the command runs and rolls back, the key is neither
   * read nor claimed, and the answer is what the write would have done.
   */
  readonly dryRun?: boolean
  /** The success as it will be sent and stored: serialized once, so a replay sends these bytes. */
  serialize(result: WriteResult): string
}

/** What a write answered: a status and the exact bytes to send; `replayed` for a stored answer. */
export interface WriteOutcome extends StoredResponse {
  replayed: boolean
}
