import type { Timestamp } from './columns.ts'

/** `web_sessions`: dashboard sessions; only a SHA-256 of the cookie's value is stored. */
export interface WebSessionsTable {
  workspace_id: string
  id_hash: Buffer
  person_id: string
  created_at: Timestamp
  last_seen_at: Timestamp
  expires_at: Timestamp
  ended_at: Timestamp | null
}
