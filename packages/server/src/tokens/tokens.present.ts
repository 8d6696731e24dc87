import type { Static } from 'typebox'
import type { ListedToken, TokenRow } from './tokens.queries.ts'
import type { TokenRecord } from './tokens.schemas.ts'

/**
 * Whether a token works now, will stop soon (a rotated key), has stopped, or was revoked (itself,
 * or something it was made with).
 */
export function tokenStatus(
  row: Pick<ListedToken, 'revoked_at' | 'expires_at' | 'makers_live'>,
  now: Date,
): Static<typeof TokenRecord>['status'] {
  if (row.revoked_at || !row.makers_live) return 'revoked'
  if (row.expires_at) return row.expires_at <= now ? 'expired' : 'expiring'
  return 'active'
}

/** A token as the API shows it: never its secret or hash. */
export function presentToken(row: ListedToken, now: Date): Static<typeof TokenRecord> {
  return {
    id: row.id,
    type: row.kind,
    name: row.name,
    owner_id: (row.person_id ?? row.integration_id) as string,
    scopes: row.scopes,
    last4: row.last4,
    status: tokenStatus(row, now),
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    project_ids: row.project_ids,
  }
}

/** The fields of a token that its audit entries diff (no secret, no hash). */
export function auditedToken(row: TokenRow): Record<string, unknown> {
  const { secret_hash: _hash, last_used_at: _used, workspace_id: _ws, ...rest } = row
  const { makers_live: _live, ...fields } = rest as typeof rest & { makers_live?: boolean }
  return fields
}
