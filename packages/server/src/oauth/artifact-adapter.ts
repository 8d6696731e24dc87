import { sql } from 'kysely'
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider'
import { hashSecret } from '../access/secrets.ts'
import type { Db } from '../db/database.ts'
import type { SecretBox } from '../lib/secret-box.ts'
import { isStorableText, unstorableText } from '../lib/storable-text.ts'

/**
 * oidc-provider's storage for one model (Grant, AuthorizationCode, AccessToken, RefreshToken,
 * Session, Interaction…) in `oauth_artifacts`. For codes and tokens the id (`jti`) is the secret
 * itself, and a session's id is its cookie: ids are stored only as hashes, and left out of the
 * stored payload, so a read of the table hands out nothing usable. A session must also be found by
 * its uid, without its id in hand; its id is kept sealed with the service secret for that.
 */
export class ArtifactAdapter implements Adapter {
  readonly #db: Db
  readonly #model: string
  readonly #secrets: SecretBox

  constructor(db: Db, model: string, secrets: SecretBox) {
    this.#db = db
    this.#model = model
    this.#secrets = secrets
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    // Authorization parameters (state, login_hint…) are stored as given; PostgreSQL's jsonb
    // refuses \u0000 and unpaired surrogates, and the request is the client's mistake, not ours.
    if (unstorableText(payload, 1).length > 0) {
      throw new errors.InvalidRequest(
        'parameters must not contain NUL characters or unpaired surrogates',
      )
    }
    const { jti: _id, ...stored } = payload as AdapterPayload & { sealedId?: string }
    if (this.#model === 'Session') stored.sealedId = this.#secrets.seal(id, SESSION_CONTEXT)
    const row = {
      model: this.#model,
      id_hash: hashSecret(id),
      payload: JSON.stringify(stored),
      // A grant's own id is its grant id, so one delete by grant id removes it with its tokens.
      grant_id: payload.grantId ?? (this.#model === 'Grant' ? id : null),
      account_id: payload.accountId ?? null,
      client_id: payload.clientId ?? null,
      uid: payload.uid ?? null,
      // The database's time, as every read of the table compares it (`#live`).
      expires_at: expiresIn ? sql<Date>`now() + ${expiresIn} * interval '1 second'` : null,
    }
    await this.#db
      .insertInto('oauth_artifacts')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['model', 'id_hash']).doUpdateSet({
          payload: row.payload,
          grant_id: row.grant_id,
          account_id: row.account_id,
          client_id: row.client_id,
          uid: row.uid,
          expires_at: row.expires_at,
        }),
      )
      .execute()
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await this.#live().where('id_hash', '=', hashSecret(id)).executeTakeFirst()
    return row ? restored(row, id) : undefined
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(uid)) return undefined // no stored uid has one; PostgreSQL refuses NUL
    const row = await this.#live().where('uid', '=', uid).executeTakeFirst()
    const sealedId = row?.payload.sealedId
    if (!row || typeof sealedId !== 'string') return undefined
    return restored(row, this.#secrets.open(sealedId, SESSION_CONTEXT))
  }

  // This model's rows that have not expired.
  #live() {
    return this.#db
      .selectFrom('oauth_artifacts')
      .select(['payload', 'consumed_at'])
      .where('model', '=', this.#model)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
  }

  // The device flow is off; nothing has a user code.
  async findByUserCode(): Promise<undefined> {
    return undefined
  }

  /**
   * Marks a code or refresh token used. Atomic: of two requests racing with one code, exactly one
   * updates the row; the other fails here, so a code or refresh token is never spent twice.
   */
  async consume(id: string): Promise<void> {
    const result = await this.#db
      .updateTable('oauth_artifacts')
      .set({ consumed_at: sql`now()` })
      .where('model', '=', this.#model)
      .where('id_hash', '=', hashSecret(id))
      .where('consumed_at', 'is', null)
      .executeTakeFirst()
    if (result.numUpdatedRows !== 1n) throw new errors.InvalidGrant('grant request is invalid')
  }

  async destroy(id: string): Promise<void> {
    await this.#db
      .deleteFrom('oauth_artifacts')
      .where('model', '=', this.#model)
      .where('id_hash', '=', hashSecret(id))
      .execute()
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (!isStorableText(grantId)) return // no such grant
    await this.#db
      .deleteFrom('oauth_artifacts')
      .where('model', '=', this.#model)
      .where('grant_id', '=', grantId)
      .execute()
  }
}

const SESSION_CONTEXT = 'oauth session id'

// The payload as the provider stored it: its id back in place, and whether it was consumed.
function restored(
  row: { payload: Record<string, unknown>; consumed_at: Date | null },
  id: string,
): AdapterPayload {
  const { sealedId: _sealed, ...payload } = row.payload
  return { ...payload, jti: id, ...(row.consumed_at ? { consumed: true } : {}) }
}

/** Deletes expired artefacts; run by the background sweeper. */
export async function sweepExpiredArtifacts(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('oauth_artifacts')
    .where('expires_at', '<', now)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
