import type { Timestamp } from './columns.ts'

/** `invitations`: who was invited to a workspace, with which role; the link as a hash only. */
export interface InvitationsTable {
  workspace_id: string
  id: string
  email: string
  name: string | null
  role: 'admin' | 'member' | 'guest'
  /** SHA-256 of the link's token: the one lookup key, never the token itself. */
  token_hash: Buffer
  invited_by: string
  created_at: Timestamp
  expires_at: Timestamp
  accepted_at: Timestamp | null
  revoked_at: Timestamp | null
  /** The person the invitation made, once accepted. */
  person_id: string | null
}
