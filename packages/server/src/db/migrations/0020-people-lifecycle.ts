import { type Kysely, sql } from 'kysely'

/**
 * People join and leave a workspace (docs/api.md, "People"):
 * - `invitations`: an owner or admin invites an email with a role; the link's token is stored
 *   only as its SHA-256 (`token_hash`, a global lookup key, as `tokens.secret_hash`), so a copy
 *   of the table lets no one join. One use: `accepted_at` and the person it made.
 * - `people.deactivated_at`: a person who left. Their record and what they wrote stay; they
 *   cannot sign in and hold no working credential; deactivating deletes the authorization
 *   server's artefacts of the person, found by `account_id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create table invitations (
  workspace_id text not null references workspaces (id),
  id           text not null,
  email        text not null,
  name         text,
  role         text not null check (role in ('admin', 'member', 'guest')),
  token_hash   bytea not null,
  invited_by   text not null,
  created_at   timestamptz(3) not null,
  expires_at   timestamptz(3) not null,
  accepted_at  timestamptz(3),
  revoked_at   timestamptz(3),
  person_id    text,
  primary key (workspace_id, id),
  foreign key (workspace_id, invited_by) references people (workspace_id, id),
  foreign key (workspace_id, person_id) references people (workspace_id, id)
);
create unique index invitations_token_hash_key on invitations (token_hash);
create index invitations_pending_idx on invitations (workspace_id, created_at desc, id desc)
  where accepted_at is null and revoked_at is null;
create index invitations_email_idx on invitations (workspace_id, lower(email));
alter table people add column deactivated_at timestamptz(3);
create index oauth_artifacts_account_idx on oauth_artifacts (account_id) where account_id is not null;
`)
    .execute(db)
}
