import { type Kysely, sql } from 'kysely'

/**
 * `web_sessions`: the dashboard's server-side sessions (docs/dashboard.md). The cookie holds a
 * random id; only its SHA-256 is stored, so a copy of the table signs no one in. Signing out sets
 * `ended_at`, which every instance reads on the next request. A person's sessions go with them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create table web_sessions (
  workspace_id text not null references workspaces (id),
  -- SHA-256 of the cookie's value, the only lookup key (global, as tokens.secret_hash)
  id_hash      bytea not null,
  person_id    text not null,
  created_at   timestamptz(3) not null,
  last_seen_at timestamptz(3) not null,
  -- the absolute end; the idle end is last_seen_at plus the idle lifetime
  expires_at   timestamptz(3) not null,
  ended_at     timestamptz(3),
  primary key (workspace_id, id_hash),
  foreign key (workspace_id, person_id) references people (workspace_id, id) on delete cascade
);
create unique index web_sessions_id_hash_key on web_sessions (id_hash);
create index web_sessions_person_idx on web_sessions (workspace_id, person_id);
create index web_sessions_expires_idx on web_sessions (expires_at);
`)
    .execute(db)
}
