import type { Scope } from '../catalogue/scopes.ts'
import type { Db } from '../db/database.ts'
import { PREPARED } from '../db/prepared-statements.ts'
import { makersLiveNow } from './credential-liveness.ts'
import type { Fence } from './fence.ts'
import type { Actor, Role } from './principal.ts'
import { expandScopes } from './scopes.ts'
import { hashSecret, isWellFormedSecret, SECRET_PREFIX } from './secrets.ts'

/** The credential a request presented. */
export interface Credential {
  readonly id: string
  /** `web_session`: a dashboard page, which reads as its person with every read scope. */
  readonly kind: 'api_key' | 'workspace_token' | 'oauth' | 'web_session'
  /** The OAuth client acting for the user, when the credential is an OAuth token. */
  readonly clientId: string | null
  readonly scopes: ReadonlySet<Scope>
  /**
   * The credentials this one ends with: its grant for an OAuth token; for a key or workspace
   * token, the keys, tokens and grants it was made with. What it makes ends with them too.
   */
  readonly madeWith: readonly string[]
  /** The projects it is fenced to (docs/permissions.md, "Fenced credentials"); null, unfenced. */
  readonly fence: Fence
  /**
   * The end it was created with, which a key it makes may not outlive; null when it has none of
   * its own (a rotation's overlap end is not one, and an OAuth token's life is its grant's).
   */
  readonly validUntil: Date | null
}

/** A credential that resolved to an actor, and the workspace's current ACL epoch. */
export interface TokenIdentity {
  credential: Credential
  actor: Actor
  aclEpoch: string
}

/** Why a bearer token was refused. */
export type TokenFailure = 'invalid' | 'expired'

// Refresh `last_used_at` at most once a minute per token: cheap, and precise enough for audits.
const LAST_USED_GRANULARITY_MS = 60_000

/** Whether a credential's `last_used_at` is old enough to be written again. */
export function lastUseIsStale(lastUsedAt: Date | null, now: Date): boolean {
  return lastUsedAt === null || now.getTime() - lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS
}

/**
 * Resolves an API key or workspace token to its actor. Malformed, unknown and revoked tokens, keys
 * of a deactivated person, and keys that something they were made with has ended, are all
 * 'invalid'; a rotated key past its overlap is 'expired'.
 */
export async function authenticateToken(
  db: Db,
  token: string,
  now: Date,
): Promise<TokenIdentity | TokenFailure> {
  if (
    !isWellFormedSecret(SECRET_PREFIX.apiKey, token) &&
    !isWellFormedSecret(SECRET_PREFIX.workspaceToken, token)
  ) {
    return 'invalid'
  }
  const found = await resolveTokenHash(db, hashSecret(token), now)
  if (typeof found === 'string') return found
  if (lastUseIsStale(found.lastUsedAt, now)) {
    await db
      .updateTable('tokens')
      .set({ last_used_at: now })
      .where('workspace_id', '=', found.identity.actor.workspaceId)
      .where('id', '=', found.identity.credential.id)
      .execute()
  }
  return found.identity
}

/**
 * What a token whose stored hash is `secretHash` resolves to at `now`, by the rules of
 * `authenticateToken`, changing nothing (its last use is the caller's to write): a move to
 * another database checks with it that every key resolves there as before, without the keys.
 */
export async function resolveTokenHash(
  db: Db,
  secretHash: Buffer,
  now: Date,
): Promise<{ identity: TokenIdentity; lastUsedAt: Date | null } | TokenFailure> {
  const row = await db
    .selectFrom('tokens as t')
    .innerJoin('workspaces as w', 'w.id', 't.workspace_id')
    .leftJoin('people as p', (join) =>
      join.onRef('p.workspace_id', '=', 't.workspace_id').onRef('p.id', '=', 't.person_id'),
    )
    .select([
      't.workspace_id',
      't.id',
      't.kind',
      't.person_id',
      't.integration_id',
      't.scopes',
      't.expires_at',
      't.revoked_at',
      't.last_used_at',
      't.made_with',
      't.project_ids',
      't.valid_until',
      'w.acl_epoch',
      'p.role',
      'p.deactivated_at',
    ])
    .where('t.secret_hash', '=', secretHash)
    .modifyEnd(PREPARED)
    .executeTakeFirst()
  if (!row || row.revoked_at !== null) return 'invalid'
  // A key ends with every credential it was made with, however that one ended.
  if (!(await makersLiveNow(db, row.workspace_id, row.made_with, now))) return 'invalid'
  if (row.expires_at !== null && row.expires_at <= now) return 'expired'
  // Deactivation revokes a person's keys; this refuses them even so, wherever else they come from.
  if (row.kind === 'api_key' && (row.role === null || row.deactivated_at !== null)) return 'invalid'
  const isPerson = row.kind === 'api_key'
  const identity: TokenIdentity = {
    credential: {
      id: row.id,
      kind: row.kind,
      clientId: null,
      scopes: expandScopes(row.scopes),
      madeWith: row.made_with,
      fence: row.project_ids,
      validUntil: row.valid_until,
    },
    actor: {
      workspaceId: row.workspace_id,
      actorId: (isPerson ? row.person_id : row.integration_id) as string,
      actorKind: isPerson ? 'person' : 'integration',
      role: isPerson ? (row.role as Role) : null,
    },
    aclEpoch: String(row.acl_epoch),
  }
  return { identity, lastUsedAt: row.last_used_at }
}
