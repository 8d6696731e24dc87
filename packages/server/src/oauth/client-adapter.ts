import { type Adapter, type AdapterPayload, errors } from 'oidc-provider'
import { hashSecret } from '../access/secrets.ts'
import type { Db } from '../db/database.ts'
import { isStorableText, unstorableText } from '../lib/storable-text.ts'

// Metadata kept in columns of their own; everything else a client registered goes to `metadata`.
const COLUMN_FIELDS = new Set([
  'client_id',
  'client_name',
  'redirect_uris',
  'application_type',
  'client_secret',
  'client_secret_expires_at',
  'client_id_issued_at',
])

/**
 * oidc-provider's view of `oauth_clients`. Clients from bundles and the CLI get the fixed shape
 * of this API (authorization code and refresh token grants, `code` only); registered clients keep
 * what they registered. The secret is never stored: `client_secret` carries its SHA-256 in hex,
 * which `compareClientSecret` (patched in oauth-provider.ts) compares against.
 */
export class ClientAdapter implements Adapter {
  readonly #db: Db

  constructor(db: Db) {
    this.#db = db
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    // The provider hands over whatever a request said; no stored id has a NUL (PostgreSQL would
    // refuse the comparison) or an unpaired surrogate.
    if (!isStorableText(id)) return undefined
    const row = await this.#db
      .selectFrom('oauth_clients')
      .select([
        'id',
        'name',
        'redirect_uris',
        'public',
        'secret_hash',
        'application_type',
        'metadata',
      ])
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) return undefined
    return {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: row.public ? 'none' : 'client_secret_basic',
      ...row.metadata,
      client_id: row.id,
      client_name: row.name,
      redirect_uris: row.redirect_uris,
      application_type: row.application_type,
      ...(row.secret_hash ? { client_secret: row.secret_hash.toString('hex') } : {}),
    }
  }

  /** Stores a client made by dynamic registration (the only way the provider creates one). */
  async upsert(id: string, payload: AdapterPayload): Promise<void> {
    if (unstorableText(payload, 1).length > 0) {
      throw new errors.InvalidClientMetadata(
        'client metadata must not contain NUL characters or unpaired surrogates',
      )
    }
    const metadata = Object.fromEntries(
      Object.entries(payload).filter(([key]) => !COLUMN_FIELDS.has(key)),
    )
    const secret = typeof payload.client_secret === 'string' ? payload.client_secret : null
    await this.#db
      .insertInto('oauth_clients')
      .values({
        workspace_id: null,
        id,
        name: typeof payload.client_name === 'string' ? payload.client_name : 'Unnamed app',
        redirect_uris: (payload.redirect_uris as string[] | undefined) ?? [],
        public: secret === null,
        secret_hash: secret === null ? null : hashSecret(secret),
        application_type: payload.application_type === 'native' ? 'native' : 'web',
        source: 'registration',
        metadata: JSON.stringify(metadata),
      })
      .execute()
  }

  async findByUid(): Promise<undefined> {
    return undefined
  }

  async findByUserCode(): Promise<undefined> {
    return undefined
  }

  async consume(): Promise<void> {
    throw new Error('clients are not consumed')
  }

  // Registration management is off: clients are deleted by operators, not through the protocol.
  async destroy(): Promise<void> {
    throw new Error('clients are not destroyed through the authorization server')
  }

  async revokeByGrantId(): Promise<void> {}
}
