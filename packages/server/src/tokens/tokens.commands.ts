import { hashSecret, lastFour, newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import { type AuditActor, recordAudit } from '../audit/audit-writer.ts'
import type { Db } from '../db/database.ts'
import { newId } from '../lib/ids.ts'
import { auditedToken } from './tokens.present.ts'
import type { TokenRow } from './tokens.queries.ts'

/** A key just issued: its row and its secret (stored only as a hash). */
export interface Issued {
  row: TokenRow
  secret: string
}

/** Issues an API key for a person, audited as `api_key.created`; call it in a transaction. */
export async function createApiKey(
  trx: Db,
  actor: AuditActor,
  input: { personId: string; name: string; scopes: readonly string[] },
  now: Date,
): Promise<Issued> {
  const secret = newSecret(SECRET_PREFIX.apiKey)
  const row = await trx
    .insertInto('tokens')
    .values({
      workspace_id: actor.workspaceId,
      id: newId('apiKey'),
      kind: 'api_key',
      person_id: input.personId,
      integration_id: null,
      name: input.name,
      scopes: [...input.scopes],
      secret_hash: hashSecret(secret),
      last4: lastFour(secret),
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await recordAudit(
    trx,
    actor,
    {
      action: 'api_key.created',
      resourceId: row.id,
      resourceType: 'api_key',
      before: null,
      after: auditedToken(row),
    },
    now,
  )
  return { row, secret }
}

/**
 * Rotates an API key: a new key with the same owner, name and scopes, while the old one keeps
 * working for `overlapSeconds` (0 ends it at once) so that deployments can switch without
 * downtime. Audited as `api_key.rotated` on the old key and `api_key.created` on the new one.
 */
export async function rotateApiKey(
  trx: Db,
  actor: AuditActor,
  old: TokenRow,
  overlapSeconds: number,
  now: Date,
): Promise<Issued & { previousExpiresAt: Date }> {
  const secret = newSecret(SECRET_PREFIX.apiKey)
  const requested = new Date(now.getTime() + overlapSeconds * 1000)
  // A key already on its way out never gets more time by being rotated again.
  const expiresAt = old.expires_at && old.expires_at < requested ? old.expires_at : requested
  const updated = await trx
    .updateTable('tokens')
    .set({ expires_at: expiresAt })
    .where('workspace_id', '=', old.workspace_id)
    .where('id', '=', old.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  const row = await trx
    .insertInto('tokens')
    .values({
      workspace_id: old.workspace_id,
      id: newId('apiKey'),
      kind: 'api_key',
      person_id: old.person_id,
      integration_id: null,
      name: old.name,
      scopes: old.scopes,
      secret_hash: hashSecret(secret),
      last4: lastFour(secret),
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await recordAudit(
    trx,
    actor,
    {
      action: 'api_key.rotated',
      resourceId: old.id,
      resourceType: 'api_key',
      before: auditedToken(old),
      after: { ...auditedToken(updated), replaced_by: row.id },
    },
    now,
  )
  await recordAudit(
    trx,
    actor,
    {
      action: 'api_key.created',
      resourceId: row.id,
      resourceType: 'api_key',
      before: null,
      after: { ...auditedToken(row), rotated_from: old.id },
    },
    now,
  )
  return { row, secret, previousExpiresAt: expiresAt }
}

/** Revokes a token at once (idempotent), audited as `token.revoked`; call it in a transaction. */
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
  await recordAudit(
    trx,
    actor,
    {
      action: 'token.revoked',
      resourceId: row.id,
      resourceType: row.kind,
      before: auditedToken(token),
      after: auditedToken(row),
    },
    now,
  )
  return row
}
