import { type Selectable, sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { InvitationsTable } from '../../db/tables/invitation.table.ts'
import type { CursorPosition } from '../../lib/cursor.ts'

/** An invitation's row without its token's hash, which no answer needs. */
export type InvitationRow = Omit<Selectable<InvitationsTable>, 'token_hash'>

/** The columns of an `InvitationRow`: every one but the token's hash. */
export const INVITATION_COLUMNS = [
  'workspace_id',
  'id',
  'email',
  'name',
  'role',
  'invited_by',
  'created_at',
  'expires_at',
  'accepted_at',
  'revoked_at',
  'person_id',
] as const

/** The pending invitations of a workspace at `now`, newest first; `limit + 1` rows. */
export async function listPendingInvitations(
  db: Db,
  workspaceId: string,
  now: Date,
  after: CursorPosition | null,
  limit: number,
): Promise<InvitationRow[]> {
  let query = db
    .selectFrom('invitations')
    .select(INVITATION_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
  if (after)
    query = query.where(
      sql<boolean>`(created_at, id) < (${after[0]}::timestamptz, ${after[1]}::text)`,
    )
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
}

/** One pending invitation of the workspace at `now`, or undefined (whom a confirmation names). */
export async function pendingInvitation(
  db: Db,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<InvitationRow | undefined> {
  return db
    .selectFrom('invitations')
    .select(INVITATION_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
}

/** One invitation of the workspace, whatever its state; locked for the transaction's change. */
export async function invitationForUpdate(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<InvitationRow | undefined> {
  return db
    .selectFrom('invitations')
    .select(INVITATION_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/** Whether the email has a pending invitation to the workspace at `now`. */
export async function hasPendingInvitation(
  db: Db,
  workspaceId: string,
  email: string,
  now: Date,
): Promise<boolean> {
  const row = await db
    .selectFrom('invitations')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * The pending invitation a link's token hash names at `now`, with its workspace's name, or
 * undefined: unknown, used, revoked and expired links are all the same nothing. `lock` holds the
 * row for the transaction that accepts it, so a link is used once.
 */
export async function pendingInvitationByToken(
  db: Db,
  tokenHash: Buffer,
  now: Date,
  lock = false,
): Promise<(InvitationRow & { workspace_name: string }) | undefined> {
  let query = db
    .selectFrom('invitations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .select(INVITATION_COLUMNS.map((column) => `i.${column}` as const))
    .select('w.name as workspace_name')
    .where('i.token_hash', '=', tokenHash)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', now)
  if (lock) query = query.forUpdate('i')
  return query.executeTakeFirst()
}
