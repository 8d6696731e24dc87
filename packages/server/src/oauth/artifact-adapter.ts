import { sql } from 'kysely'
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider'
import { hashSecret } from '../access/secrets.ts'
import type { Db } from '../db/database.ts'

/**
 * oidc-provider's storage for one model (Grant, AuthorizationCode, AccessToken, RefreshToken,
 * Session, Interaction…) in `oauth_artifacts`. Ids are stored hashed: for codes and tokens the id
 * is the secret, so a read of the table hands out nothing usable.
 */
export class ArtifactAdapter implements Adapter {
  readonly #db: Db
  readonly #model: string

  constructor(db: Db, model: string) {
    this.#db = db
    this.#model = model
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const row = {
      model: this.#model,
      id_hash: hashSecret(id),
      payload: JSON.stringify(payload),
      // A grant's own id is its grant id, so one delete by grant id removes it with its tokens.
      grant_id: payload.grantId ?? (this.#model === 'Grant' ? id : null),
      account_id: payload.accountId ?? null,
      client_id: payload.clientId ?? null,
      uid: payload.uid ?? null,
      expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
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
    const row = await this.#db
      .selectFrom('oauth_artifacts')
      .select(['payload', 'consumed_at'])
      .where('model', '=', this.#model)
      .where('id_hash', '=', hashSecret(id))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .executeTakeFirst()
    if (!row) return undefined
    return { ...(row.payload as AdapterPayload), ...(row.consumed_at ? { consumed: true } : {}) }
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.#db
      .selectFrom('oauth_artifacts')
      .select(['payload', 'consumed_at'])
      .where('model', '=', this.#model)
      .where('uid', '=', uid)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .executeTakeFirst()
    if (!row) return undefined
    return { ...(row.payload as AdapterPayload), ...(row.consumed_at ? { consumed: true } : {}) }
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
    await this.#db
      .deleteFrom('oauth_artifacts')
      .where('model', '=', this.#model)
      .where('grant_id', '=', grantId)
      .execute()
  }
}

/** Deletes expired artefacts; run by the background sweeper. */
export async function sweepExpiredArtifacts(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('oauth_artifacts')
    .where('expires_at', '<', now)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
