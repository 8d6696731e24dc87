import type { ColumnType } from 'kysely'
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
  /**
   * The credentials it ends with: the API keys, workspace tokens and OAuth grants it was made
   * with, directly or through other keys (access/credential-reach.ts).
   */
  made_with: ColumnType<string[], string[] | undefined, string[]>
  secret_hash: Buffer
  last4: string
  created_at: DefaultTimestamp
  last_used_at: Timestamp | null
  expires_at: Timestamp | null
  revoked_at: Timestamp | null
  /** The projects the token is fenced to; null when it is not fenced. */
  project_ids: string[] | null
  /** The end it was created with; rotation never moves it (`expires_at` may be earlier). */
  valid_until: Timestamp | null
}

/** `oauth_clients`: applications that may ask users for tokens. */
export interface OAuthClientsTable {
  /** The workspace whose people alone may authorize it; null for server-wide clients. */
  workspace_id: string | null
  id: string
  name: string
  redirect_uris: string[]
  public: boolean
  secret_hash: Buffer | null
  application_type: ColumnType<'web' | 'native', 'web' | 'native' | undefined, never>
  source: ColumnType<OAuthClientSource, OAuthClientSource | undefined, never>
  /** Further registered metadata (client_uri, logo_uri…), as registered. */
  metadata: ColumnType<Record<string, unknown>, string | undefined, never>
  created_at: DefaultTimestamp
}

/** Where an OAuth client came from. */
export type OAuthClientSource = 'bundle' | 'cli' | 'registration'

/** `oauth_artifacts`: the authorization server's grants, codes, tokens and sessions. */
export interface OAuthArtifactsTable {
  model: string
  /** SHA-256 of the id; a code's or token's id is its secret value. */
  id_hash: Buffer
  payload: ColumnType<Record<string, unknown>, string, string>
  grant_id: string | null
  account_id: string | null
  client_id: string | null
  uid: string | null
  expires_at: Timestamp | null
  consumed_at: Timestamp | null
  last_used_at: Timestamp | null
  /** On a Grant row: the projects picked at consent, which fence its tokens; null, unfenced. */
  project_ids: string[] | null
}
