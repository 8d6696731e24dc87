import { randomUUID } from 'node:crypto'
import type { ExpressionBuilder } from 'kysely'
import type { Database, Db } from '../db/database.ts'
import { PREPARED } from '../db/prepared-statements.ts'
import type { SecretBox } from '../lib/secret-box.ts'

/** How long a key is remembered, from its first request (docs/api.md, "Idempotency keys"). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/**
 * How long a claim holds before another request may take the key over: about how long the
 * retries of a client whose first attempt died with its process are turned away. A live executor
 * renews its claim while it runs (`renewKey`), so only a claim whose process stopped lapses.
 */
export const IDEMPOTENCY_LEASE_MS = 10_000

/** How often a running write renews its claim: well within the lease, so a renewal is never late. */
export const IDEMPOTENCY_RENEW_MS = 3_000

/** Whose key it is: keys of different tokens or workspaces never meet. */
export interface KeyScope {
  workspaceId: string
  tokenId: string
  key: string
}

/** A key this request holds the lease of; its completion is fenced by `lockToken`. */
export interface KeyClaim extends KeyScope {
  lockToken: string
}

/** A finished response, as sent the first time. */
export interface StoredResponse {
  status: number
  body: string
}

/** What claiming a key found. */
export type ClaimOutcome =
  | { kind: 'claimed'; claim: KeyClaim }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in_progress' }
  | { kind: 'reused' }

/**
 * Claims a key for a request with this fingerprint, in statements of its own (committed before
 * the request's work starts, so other instances see the claim). Keys past their 24 hours are
 * treated as absent, whether or not anything has swept them yet. The claim is made with
 * `lockToken`, chosen by the caller so that it can release a claim whose outcome it never heard
 * (the connection ended before the answer came back).
 */
export async function claimKey(
  db: Db,
  scope: KeyScope,
  fingerprint: string,
  secrets: SecretBox,
  now: Date,
  lockToken: string = randomUUID(),
): Promise<ClaimOutcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const claim = {
      fingerprint,
      status: 'in_progress' as const,
      lock_token: lockToken,
      locked_until: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      created_at: now,
      expires_at: new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS),
    }
    // One statement: a new key is inserted, and a key past its window is claimed afresh in place.
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        workspace_id: scope.workspaceId,
        token_id: scope.tokenId,
        key: scope.key,
        ...claim,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['workspace_id', 'token_id', 'key'])
          .doUpdateSet({ ...claim, response_status: null, response_body: null })
          .where('idempotency_keys.expires_at', '<=', now),
      )
      .returning('lock_token')
      .modifyEnd(PREPARED)
      .executeTakeFirst()
    if (inserted) return { kind: 'claimed', claim: { ...scope, lockToken } }

    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where(keyIs(scope))
      .executeTakeFirst()
    if (!existing) continue // released by a failed first request just now: claim again
    if (existing.fingerprint !== fingerprint) return { kind: 'reused' }
    if (existing.status === 'completed' && existing.response_body !== null) {
      return {
        kind: 'replay',
        response: {
          status: existing.response_status ?? 200,
          body: secrets.open(existing.response_body, sealContext(scope)),
        },
      }
    }
    if (existing.locked_until > now) return { kind: 'in_progress' }
    // The first executor stopped without finishing or releasing (a crashed process): take over.
    const taken = await db
      .updateTable('idempotency_keys')
      .set({
        lock_token: lockToken,
        locked_until: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      })
      .where(keyIs(scope))
      .where('lock_token', '=', existing.lock_token)
      .where('status', '=', 'in_progress')
      .executeTakeFirst()
    if (Number(taken.numUpdatedRows) === 1)
      return { kind: 'claimed', claim: { ...scope, lockToken } }
    return { kind: 'in_progress' }
  }
  return { kind: 'in_progress' }
}

/**
 * Stores the response of a claimed key. Call it in the transaction of the write: the change and
 * its stored response commit together. Returns false when the lease was lost (another request
 * took the key over), in which case the caller must roll back.
 */
export async function completeKey(
  db: Db,
  claim: KeyClaim,
  response: StoredResponse,
  secrets: SecretBox,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({
      status: 'completed',
      response_status: response.status,
      response_body: secrets.seal(response.body, sealContext(claim)),
    })
    .where(keyIs(claim))
    .where('lock_token', '=', claim.lockToken)
    .where('status', '=', 'in_progress')
    .modifyEnd(PREPARED)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Extends a claim's lease from `now`, while its write still runs; a lost claim stays lost. */
export async function renewKey(db: Db, claim: KeyClaim, now: Date): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ locked_until: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS) })
    .where(keyIs(claim))
    .where('lock_token', '=', claim.lockToken)
    .where('status', '=', 'in_progress')
    .execute()
}

/** Gives a key back after a failure that changed nothing, so that a retry runs anew. */
export async function releaseKey(db: Db, claim: KeyClaim): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where(keyIs(claim))
    .where('lock_token', '=', claim.lockToken)
    .where('status', '=', 'in_progress')
    .execute()
}

/** Deletes keys past their window; their requests would run anew anyway. */
export async function sweepExpiredKeys(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', now)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

function keyIs(scope: KeyScope) {
  return (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
    eb.and({ workspace_id: scope.workspaceId, token_id: scope.tokenId, key: scope.key })
}

// A stored response opens only for the key it was stored under.
function sealContext(scope: KeyScope): string {
  return `idempotency:${scope.workspaceId}:${scope.tokenId}:${scope.key}`
}
