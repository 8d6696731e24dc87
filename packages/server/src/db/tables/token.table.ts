import type { DefaultTimestamp, Timestamp } from './columns.ts'

/** `tokens`: API keys and workspace tokens; only a hash of the secret is stored. */
export interface TokensTable {
  workspace_id: string
  id: string
  kind: 'api_key' | 'workspace_token'
  person_id: string | null
  integration_id: string | null
  name: string
  scopes: string[]
  secret_hash: Buffer
  last4: string
  created_at: DefaultTimestamp
  last_used_at: Timestamp | null
  expires_at: Timestamp | null
  revoked_at: Timestamp | null
}

/** `oauth_clients`: applications that may ask users for tokens. */
export interface OAuthClientsTable {
  workspace_id: string
  id: string
  name: string
  redirect_uris: string[]
  public: boolean
  secret_hash: Buffer | null
  created_at: DefaultTimestamp
}
