import { type Kysely, sql } from 'kysely'

/**
 * The audit log: every token lifecycle action and every write, with who did it (person or
 * integration, token, token kind, OAuth client), what changed (a JSON diff of before and after)
 * and where it came from (request id, IP, user agent). Append-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create table audit_log (
  workspace_id  text not null references workspaces (id),
  id            text not null,
  actor_id      text not null,
  token_id      text,
  token_kind    text,
  client_id     text,
  action        text not null,
  resource_id   text,
  resource_type text,
  diff          jsonb not null default '{}',
  request_id    text,
  ip            text,
  user_agent    text,
  created_at    timestamptz(3) not null default now(),
  primary key (workspace_id, id)
);
create index audit_log_time_idx on audit_log (workspace_id, created_at desc, id desc);
create index audit_log_token_idx on audit_log (workspace_id, token_id, created_at desc);
create index audit_log_actor_idx on audit_log (workspace_id, actor_id, created_at desc);
create index audit_log_resource_idx on audit_log (workspace_id, resource_id, created_at desc);
`)
    .execute(db)
}
