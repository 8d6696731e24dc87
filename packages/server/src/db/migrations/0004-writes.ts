import { type Kysely, sql } from 'kysely'

/**
 * Safe writes: the outbox of events (written in the same transaction as the change it announces),
 * idempotency keys (shared by every process through the database), and rate-limit windows
 * (likewise shared, so that a limit holds across instances).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create table events (
  workspace_id  text not null references workspaces (id),
  id            text not null,
  type          text not null,
  subject_id    text not null,
  subject_type  text not null,
  actor_id      text not null,
  -- the subject as it was when the event happened, every link included; a delivery shows each
  -- recipient only the links it may open
  data          jsonb not null,
  created_at    timestamptz(3) not null,
  dispatched_at timestamptz(3),
  primary key (workspace_id, id)
);
create index events_undispatched_idx on events (created_at, id) where dispatched_at is null;

create table idempotency_keys (
  workspace_id    text not null references workspaces (id),
  token_id        text not null,
  key             text not null,
  fingerprint     text not null,
  status          text not null check (status in ('in_progress', 'completed')),
  lock_token      text not null,
  locked_until    timestamptz(3) not null,
  response_status integer,
  -- the response body as sent, encrypted with the service secret (it may hold a one-time secret)
  response_body   text,
  created_at      timestamptz(3) not null,
  expires_at      timestamptz(3) not null,
  primary key (workspace_id, token_id, key)
);
create index idempotency_keys_expiry_idx on idempotency_keys (expires_at);

-- unlogged: counts of the current minute are worth no WAL; a crash merely resets them
create unlogged table rate_limit_windows (
  workspace_id text not null,
  token_id     text not null,
  kind         text not null check (kind in ('read', 'write')),
  window_start timestamptz(3) not null,
  hits         integer not null,
  primary key (workspace_id, token_id, kind, window_start)
);
create index rate_limit_windows_start_idx on rate_limit_windows (window_start);
`)
    .execute(db)
}
