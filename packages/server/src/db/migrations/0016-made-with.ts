import { type Kysely, sql } from 'kysely'

/**
 * A credential ends with every credential it was made with (docs/permissions.md, "What a
 * credential reaches"): `tokens.grant_ids`, which held only the OAuth grants a key was made
 * through, becomes `made_with` and also holds the API keys and workspace tokens whose secret made
 * it, directly or through other keys. Keys made before this migration keep their grants; which
 * key made them was not recorded, so they end with those grants only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table tokens rename column grant_ids to made_with;
alter index tokens_grant_ids_idx rename to tokens_made_with_idx;
`)
    .execute(db)
}
