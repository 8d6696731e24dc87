import { hashSecret, newSecret, SECRET_PREFIX } from '../../access/secrets.ts'
import { notFound, ProblemError } from '../../api/problem-catalogue.ts'
import { recordAudit } from '../../audit/audit-writer.ts'
import { newId } from '../../lib/ids.ts'
import { recordDirectoryChange } from '../../writes/directory-change.ts'
import type { WriteContext } from '../../writes/write-context.ts'
import { invitationStatus, presentInvitation } from './invitations.present.ts'
import {
  hasPendingInvitation,
  INVITATION_COLUMNS,
  type InvitationRow,
  invitationForUpdate,
} from './invitations.queries.ts'
import { lockDirectory, requireAdministrator, requireOwnerFor } from './people-admin.rules.ts'

/** How long an invitation's link works. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000

/** The path of an invitation's link, under PUBLIC_URL: the join page (web/join.routes.ts). */
export function joinPath(token: string): string {
  return `/join/${token}`
}

/** An invitation just made, and the token of its link: the one copy, never stored. */
export interface Invited {
  row: InvitationRow
  token: string
}

/**
 * Invites an email to the workspace with a role (`POST /v1/invitations`), recorded as
 * `person.invited`. Owners and admins only, and only an owner invites an admin. An email that is
 * already a person of the workspace (deactivated ones included) or that has a pending invitation
 * is a 409. Only the token's hash is stored; the caller sends the link after the commit.
 */
export async function createInvitation(
  w: WriteContext,
  input: { email: string; role: 'admin' | 'member' | 'guest'; name?: string | undefined },
): Promise<Invited> {
  const ws = w.principal.workspaceId
  requireAdministrator(w.principal)
  if (input.role === 'admin') requireOwnerFor(w.principal, 'invite an admin')
  const email = input.email.trim()
  const name = input.name?.trim() ?? ''
  if (input.name !== undefined && name.length === 0)
    throw new ProblemError('validation_failed', 'The name is blank.', {
      errors: [{ path: '/name', message: 'must not be blank' }],
    })
  await lockDirectory(w.trx, ws)
  const person = await w.trx
    .selectFrom('people')
    .select('deactivated_at')
    .where('workspace_id', '=', ws)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst()
  if (person)
    throw new ProblemError(
      'conflict',
      person.deactivated_at
        ? 'This email belongs to a deactivated person of the workspace: reactivate them instead.'
        : 'This email already belongs to a person of the workspace.',
    )
  if (await hasPendingInvitation(w.trx, ws, email, w.now))
    throw new ProblemError(
      'conflict',
      'This email already has a pending invitation: revoke it first to send a new one.',
    )
  const token = newSecret(SECRET_PREFIX.invitation)
  const row = await w.trx
    .insertInto('invitations')
    .values({
      workspace_id: ws,
      id: newId('invitation'),
      email,
      name: name.length > 0 ? name : null,
      role: input.role,
      token_hash: hashSecret(token),
      invited_by: w.principal.actorId,
      created_at: w.now,
      expires_at: new Date(w.now.getTime() + INVITATION_LIFETIME_MS),
    })
    .returning(INVITATION_COLUMNS)
    .executeTakeFirstOrThrow()
  const record = presentInvitation(row, w.now)
  await recordDirectoryChange(w, {
    verb: 'person.invited',
    // The invitation is the subject: only those who administer may open it (access/visibility.ts).
    subjectId: row.id,
    subjectType: 'person',
    audit: { resourceId: row.id, resourceType: 'invitation', before: null, after: record },
    eventObject: record,
  })
  return { row, token }
}

/**
 * Revokes an invitation (`DELETE /v1/invitations/:id`): its link stops working at once. Revoking
 * one that is revoked or expired answers it as it is; one already accepted is a 409 (deactivate
 * the person instead). Audited as `invitation.revoked`.
 */
export async function revokeInvitation(w: WriteContext, id: string): Promise<InvitationRow> {
  const ws = w.principal.workspaceId
  requireAdministrator(w.principal)
  const row = await invitationForUpdate(w.trx, ws, id)
  if (!row) throw notFound()
  if (row.accepted_at)
    throw new ProblemError(
      'conflict',
      'This invitation was accepted: deactivate the person it made instead.',
    )
  if (row.revoked_at) return row
  const revoked = await w.trx
    .updateTable('invitations')
    .set({ revoked_at: w.now })
    .where('workspace_id', '=', ws)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
  await recordAudit(
    w.trx,
    w.actor,
    {
      action: 'invitation.revoked',
      resourceId: id,
      resourceType: 'invitation',
      before: { status: invitationStatus(row, w.now) },
      after: { status: 'revoked' },
    },
    w.now,
  )
  const { token_hash: _, ...answer } = revoked
  return answer
}
