import type { Static } from 'typebox'
import type { InvitationRow } from './invitations.queries.ts'
import type { InvitationRecord } from './invitations.schemas.ts'

/** An invitation's state at `now`. */
export function invitationStatus(
  row: InvitationRow,
  now: Date,
): 'pending' | 'accepted' | 'revoked' | 'expired' {
  if (row.accepted_at) return 'accepted'
  if (row.revoked_at) return 'revoked'
  return row.expires_at <= now ? 'expired' : 'pending'
}

/** An invitation as the API and its events show it. */
export function presentInvitation(row: InvitationRow, now: Date): Static<typeof InvitationRecord> {
  return {
    id: row.id,
    type: 'invitation',
    email: row.email,
    name: row.name,
    role: row.role,
    status: invitationStatus(row, now),
    inviter_id: row.invited_by,
    person_id: row.person_id,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    accepted_at: row.accepted_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  }
}
