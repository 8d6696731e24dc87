import type { Timestamp } from './columns.ts'

/** `setup_tokens`: the first-run page's one-time links; only a SHA-256 of each is stored. */
export interface SetupTokensTable {
  id_hash: Buffer
  created_at: Timestamp
  expires_at: Timestamp
}

/** `password_links`: single-use links to choose a password; only a SHA-256 of each is stored. */
export interface PasswordLinksTable {
  workspace_id: string
  id_hash: Buffer
  person_id: string
  created_at: Timestamp
  expires_at: Timestamp
  used_at: Timestamp | null
}
