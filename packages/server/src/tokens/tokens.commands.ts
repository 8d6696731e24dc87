import { sql } from 'kysely'
import { lineageOf } from '../access/credential-reach.ts'
import { earlierEnd, narrowedFenceSql, narrowFence } from '../access/fence.ts'
import { isKnownScope, scopesBeyond } from '../access/scopes.ts'
import { hashSecret, lastFour, newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import { notFound, ProblemError } from '../api/problem-catalogue.ts'
import { type AuditActor, recordAudit } from '../audit/audit-writer.ts'
import type { Db } from '../db/database.ts'
import type { AuditAction } from '../db/tables/audit.table.ts'
import { newId } from '../lib/ids.ts'
import {
  disableBoundEndpoints,
  moveBoundEndpoints,
  narrowBoundEndpoints,
} from '../webhooks/endpoint-binding.ts'
import type { WriteContext } from '../writes/write-context.ts'
import { limitsOfNewCredential } from './credential-limits.ts'
import { auditedToken, tokenStatus } from './tokens.present.ts'
import { type ListedToken, listTokens, type TokenRow } from './tokens.queries.ts'

/** A key just issued: its row and its secret (stored only as a hash). */
export interface Issued {
  /** Live: it was made by a credential that works, so the grants it ends with live. */
  row: ListedToken
  secret: string
}

/**
 * Issues an API key to the caller, audited as `api_key.created`. It may carry only scopes the
 * caller's token holds (else 403 `insufficient_scope` naming the others), and it ends with the
 * caller's credential and everything that one ends with (`lineageOf`): a key made with a key, or
 * through an app, dies with it. It is fenced to projects and time within the caller's own fence
 * and end (credential-limits.ts).
 */
export async function createApiKey(
  w: WriteContext,
  input: {
    name: string
    scopes: readonly string[]
    project_ids?: readonly string[] | undefined
    expires_at?: string | undefined
  },
): Promise<Issued> {
  const { principal, credential } = w.caller
  if (principal.actorKind !== 'person') {
    throw new ProblemError(
      'forbidden',
      'API keys belong to people; an integration uses its workspace token.',
    )
  }
  const errors = input.scopes.flatMap((scope, i) =>
    isKnownScope(scope)
      ? []
      : [{ path: `/scopes/${i}`, message: `"${scope}" is not a known scope` }],
  )
  if (errors.length > 0)
    throw new ProblemError('validation_failed', 'Some scopes are not known.', { errors })
  requireScopesHeld(w, input.scopes, 'create a key with')
  const limits = await limitsOfNewCredential(w, input)
  const secret = newSecret(SECRET_PREFIX.apiKey)
  const row = await w.trx
    .insertInto('tokens')
    .values({
      workspace_id: principal.workspaceId,
      id: newId('apiKey'),
      kind: 'api_key',
      person_id: principal.actorId,
      integration_id: null,
      name: input.name,
      scopes: [...input.scopes],
      made_with: lineageOf(credential),
      project_ids: limits.fence === null ? null : [...limits.fence],
      valid_until: limits.validUntil,
      expires_at: limits.validUntil,
      secret_hash: hashSecret(secret),
      last4: lastFour(secret),
      created_at: w.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await audit(w.trx, w.actor, 'api_key.created', row.id, 'api_key', null, auditedToken(row), w.now)
  return { row: { ...row, makers_live: true }, secret }
}

/**
 * Rotates one of the caller's own API keys: a new key with the same owner, name and scopes, while
 * the old one keeps working for `overlapSeconds` (0 ends it at once) so that deployments can
 * switch without downtime. The caller's credential must cover the key (it gets its secret); the
 * new key ends with what the old key and the caller's credential end with, and takes the old
 * key's place in the lineage of everything made with it, and in the bindings of its webhook
 * endpoints. Audited as `api_key.rotated` on the old key and `api_key.created` on the new one.
 */
export async function rotateApiKey(
  w: WriteContext,
  keyId: string,
  overlapSeconds: number,
): Promise<Issued & { previousExpiresAt: Date }> {
  const { principal, credential } = w.caller
  const [old] = await listTokens(w.trx, w.caller, { ids: [keyId], type: 'api_key' }, null, 1, w.now)
  // Admins see others' keys in lists, but only the owner may rotate one (and get its secret).
  if (!old || old.person_id !== principal.actorId) throw notFound()
  const status = tokenStatus(old, w.now)
  if (status === 'revoked' || status === 'expired')
    throw new ProblemError('conflict', 'This key no longer works; create a new one instead.')
  requireScopesHeld(w, old.scopes, 'rotate a key with')
  const secret = newSecret(SECRET_PREFIX.apiKey)
  // The new key keeps the old one's fence and end, within the caller's: never wider, never later.
  const fence = narrowFence(credential.fence, old.project_ids)
  const validUntil = earlierEnd(old.valid_until, credential.validUntil)
  const requested = new Date(w.now.getTime() + overlapSeconds * 1000)
  // A key already on its way out never gets more time by being rotated again.
  const expiresAt = old.expires_at && old.expires_at < requested ? old.expires_at : requested
  const updated = await w.trx
    .updateTable('tokens')
    .set({ expires_at: expiresAt })
    .where('workspace_id', '=', old.workspace_id)
    .where('id', '=', old.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  const row = await w.trx
    .insertInto('tokens')
    .values({
      workspace_id: old.workspace_id,
      id: newId('apiKey'),
      kind: 'api_key',
      person_id: old.person_id,
      integration_id: null,
      name: old.name,
      scopes: old.scopes,
      // A key rotating itself is not made with itself: the new key replaces it.
      made_with: [...new Set([...old.made_with, ...lineageOf(credential)])].filter(
        (id) => id !== old.id,
      ),
      project_ids: fence === null ? null : [...fence],
      valid_until: validUntil,
      expires_at: validUntil,
      secret_hash: hashSecret(secret),
      last4: lastFour(secret),
      created_at: w.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await handOverLineage(w.trx, old.workspace_id, old.id, row)
  await moveBoundEndpoints(w.trx, old.workspace_id, old.id, row.id, w.now)
  await audit(
    w.trx,
    w.actor,
    'api_key.rotated',
    old.id,
    'api_key',
    auditedToken(old),
    {
      ...auditedToken(updated),
      replaced_by: row.id,
    },
    w.now,
  )
  await audit(
    w.trx,
    w.actor,
    'api_key.created',
    row.id,
    'api_key',
    null,
    {
      ...auditedToken(row),
      rotated_from: old.id,
    },
    w.now,
  )
  return { row: { ...row, makers_live: true }, secret, previousExpiresAt: expiresAt }
}

/**
 * Revokes a token at once (idempotent), audited as `token.revoked`, and with it every key and
 * token made with it (each audited the same way). The webhook endpoints bound to any of them are
 * disabled. Call it in a transaction.
 */
export async function revokeToken(
  trx: Db,
  actor: AuditActor,
  token: TokenRow,
  now: Date,
): Promise<TokenRow> {
  if (token.revoked_at) return token
  const row = await trx
    .updateTable('tokens')
    .set({ revoked_at: now })
    .where('workspace_id', '=', token.workspace_id)
    .where('id', '=', token.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  await audit(
    trx,
    actor,
    'token.revoked',
    row.id,
    row.kind,
    auditedToken(token),
    auditedToken(row),
    now,
  )
  await disableBoundEndpoints(trx, actor, [row.id], now)
  await revokeMadeWith(trx, actor, row.id, now)
  return row
}

/**
 * Revokes every key and token made with a credential being revoked (a key, a workspace token or
 * an OAuth grant), each audited and its endpoints disabled. `made_with` holds whole lineages, so
 * one query finds them all; revoking them finds nothing more that is still live.
 */
export async function revokeMadeWith(
  trx: Db,
  actor: AuditActor,
  credentialId: string,
  now: Date,
): Promise<void> {
  const keys = await trx
    .selectFrom('tokens')
    .selectAll()
    .where('workspace_id', '=', actor.workspaceId)
    .where('made_with', '@>', sql<string[]>`array[${credentialId}]::text[]`)
    .where('revoked_at', 'is', null)
    .execute()
  for (const key of keys) await revokeToken(trx, actor, key, now)
}

/**
 * Puts a rotated key's replacement in its place in the lineage of everything made with it, with
 * what the replacement ends with: whatever made the new key now ends those too.
 */
async function handOverLineage(
  trx: Db,
  workspaceId: string,
  oldId: string,
  replacement: TokenRow,
): Promise<void> {
  await trx
    .updateTable('tokens')
    .set({
      made_with: sql<string[]>`array(
        select distinct maker from unnest(array_replace(made_with, ${oldId}, ${replacement.id}) || ${sql.val(replacement.made_with)}::text[]) as lineage(maker)
        where maker <> tokens.id order by maker)`,
    })
    .where('workspace_id', '=', workspaceId)
    .where('made_with', '@>', sql<string[]>`array[${oldId}]::text[]`)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Refuses (403 `insufficient_scope`) scopes of a credential to issue that the caller lacks. */
export function requireScopesHeld(w: WriteContext, scopes: readonly string[], doing: string): void {
  const beyond = scopesBeyond(w.caller.credential.scopes, scopes)
  if (beyond.length === 0) return
  throw new ProblemError(
    'insufficient_scope',
    `A token can only ${doing} scopes it holds itself; this one lacks ${beyond.join(', ')}.`,
    { required_scopes: beyond },
  )
}

async function audit(
  trx: Db,
  actor: AuditActor,
  action: AuditAction,
  resourceId: string,
  resourceType: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  now: Date,
): Promise<void> {
  await recordAudit(trx, actor, { action, resourceId, resourceType, before, after }, now)
}

/**
 * Narrows to `fence` everything made with a credential whose fence just narrowed (an OAuth grant
 * re-approved with fewer projects): the keys and tokens made with it, and the webhook endpoints
 * bound to it or to them. A widened fence is never passed on: what was made under the narrower
 * one keeps its own.
 */
export async function narrowMadeWith(
  trx: Db,
  workspaceId: string,
  credentialId: string,
  fence: readonly string[],
): Promise<void> {
  const narrowed = await trx
    .updateTable('tokens')
    .set({ project_ids: narrowedFenceSql('project_ids', fence) })
    .where('workspace_id', '=', workspaceId)
    .where('made_with', '@>', sql<string[]>`array[${credentialId}]::text[]`)
    .returning('id')
    .execute()
  await narrowBoundEndpoints(
    trx,
    workspaceId,
    [credentialId, ...narrowed.map((row) => row.id)],
    fence,
  )
}
