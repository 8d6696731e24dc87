import { type Kysely, sql } from 'kysely'

/**
 * Starting a server's first workspace (docs/getting-started-team.md):
 * - `setup_tokens`: the one-time links a server with no workspace prints at start for its
 *   first-run page (`/setup?token=…`); only their SHA-256 is stored, so a copy of the table
 *   opens nothing, and every instance of one database accepts the link any of them printed.
 * - `password_links`: the single-use links that let a person choose their password
 *   (`workgraph init --no-password`), stored as their SHA-256 (a global lookup key, as
 *   `tokens.secret_hash`). A link goes with its person.
 * - `audit_log.via` may be `cli`: a workspace and its first key made by `workgraph init`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create table setup_tokens (
  id_hash    bytea primary key,
  created_at timestamptz(3) not null,
  expires_at timestamptz(3) not null
);
create table password_links (
  workspace_id text not null references workspaces (id),
  id_hash      bytea not null,
  person_id    text not null,
  created_at   timestamptz(3) not null,
  expires_at   timestamptz(3) not null,
  used_at      timestamptz(3),
  primary key (workspace_id, id_hash),
  foreign key (workspace_id, person_id) references people (workspace_id, id) on delete cascade
);
create unique index password_links_id_hash_key on password_links (id_hash);
alter table audit_log drop constraint audit_log_via_check;
alter table audit_log add constraint audit_log_via_check check (via in ('api', 'mcp', 'web', 'cli'));
`)
    .execute(db)
}
