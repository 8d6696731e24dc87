import { type Kysely, sql } from 'kysely'

/**
 * OAuth: clients need not belong to a workspace (dynamic registration and `workgraph
 * oauth-client create` make server-wide ones), and the authorization server's artefacts
 * (interactions, sessions, grants, codes and tokens) live in one table keyed by a hash of their id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table oauth_clients drop constraint oauth_clients_pkey;
drop index oauth_clients_id_key;
alter table oauth_clients alter column workspace_id drop not null;
alter table oauth_clients add primary key (id);
-- 'native' apps may use any port on a loopback redirect URI (RFC 8252 §7.3)
alter table oauth_clients add column application_type text not null default 'web'
  check (application_type in ('web', 'native'));
alter table oauth_clients add column source text not null default 'bundle'
  check (source in ('bundle', 'cli', 'registration'));
-- further registered metadata (client_uri, logo_uri, contacts…), as the client sent it
alter table oauth_clients add column metadata jsonb not null default '{}';
create index oauth_clients_workspace_idx on oauth_clients (workspace_id);

create table oauth_artifacts (
  model        text not null,
  -- SHA-256 of the artefact's id: for codes and tokens the id is the secret itself
  id_hash      bytea not null,
  payload      jsonb not null,
  grant_id     text,
  account_id   text,
  client_id    text,
  uid          text,
  expires_at   timestamptz(3),
  consumed_at  timestamptz(3),
  last_used_at timestamptz(3),
  primary key (model, id_hash)
);
create index oauth_artifacts_grant_idx on oauth_artifacts (grant_id) where grant_id is not null;
create index oauth_artifacts_uid_idx on oauth_artifacts (uid) where uid is not null;
create index oauth_artifacts_expires_idx on oauth_artifacts (expires_at);
create index oauth_artifacts_account_grants_idx on oauth_artifacts (account_id, client_id)
  where model = 'Grant';
`)
    .execute(db)
}
