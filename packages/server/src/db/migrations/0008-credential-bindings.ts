import { type Kysely, sql } from 'kysely'

/**
 * What a credential made lives no longer than the credential (docs/permissions.md, "Credentials"):
 * - `tokens.grant_ids`: the OAuth grants an API key ends with: the grant whose token created it,
 *   and those its creator was bound to, so a key minted through an app and then used to mint
 *   another still ends with the app's grant.
 * - `webhook_endpoints.credential_id` (was `created_by_token_id`): the API key, workspace token or
 *   OAuth grant an endpoint is bound to; rotation moves it to the new key.
 * - `disabled_reason` becomes a stable code rather than a sentence.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table tokens add column grant_ids text[] not null default '{}';
create index tokens_grant_ids_idx on tokens using gin (grant_ids);
alter table webhook_endpoints rename column created_by_token_id to credential_id;
create index webhook_endpoints_credential_idx on webhook_endpoints (workspace_id, credential_id)
  where deleted_at is null;
update webhook_endpoints set disabled_reason = case
  when disabled_reason like '%410%' then 'receiver_gone'
  when disabled_reason like '%5 days%' then 'failing'
  else 'disabled_by_owner' end
where disabled_reason is not null;
alter table webhook_endpoints add constraint webhook_endpoints_disabled_reason_check
  check (disabled_reason in ('disabled_by_owner', 'receiver_gone', 'failing', 'credential_revoked'));
`)
    .execute(db)
}
