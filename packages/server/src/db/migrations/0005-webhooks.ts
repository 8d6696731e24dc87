import { type Kysely, sql } from 'kysely'

/**
 * Webhooks: endpoints (with their sealed signing secrets), deliveries (the queue, claimed with
 * leases, and the state a subscriber sees), attempts (the log of every request sent), and a
 * notification when events are written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create table webhook_endpoints (
  workspace_id           text not null references workspaces (id),
  id                     text not null,
  url                    text not null,
  description            text,
  event_types            text[] not null,
  status                 text not null check (status in ('active', 'disabled')),
  disabled_reason        text,
  disabled_at            timestamptz(3),
  -- whose permissions filter what the endpoint receives: the creating token's owner and scopes
  owner_id               text not null,
  owner_kind             text not null check (owner_kind in ('person', 'integration')),
  owner_scopes           text[] not null,
  created_by_token_id    text not null,
  -- signing secrets, sealed with the service secret (the service must read them to sign)
  secret_sealed          text not null,
  previous_secret_sealed text,
  previous_expires_at    timestamptz(3),
  -- the first failure since the last success: the auto-disable clock
  failing_since          timestamptz(3),
  last_success_at        timestamptz(3),
  created_at             timestamptz(3) not null,
  updated_at             timestamptz(3) not null,
  deleted_at             timestamptz(3),
  primary key (workspace_id, id)
);
create index webhook_endpoints_live_idx on webhook_endpoints (workspace_id) where deleted_at is null;

create table webhook_deliveries (
  workspace_id    text not null references workspaces (id),
  id              text not null,
  endpoint_id     text not null,
  event_id        text not null,
  event_type      text not null,
  status          text not null
                  check (status in ('pending', 'in_flight', 'retrying', 'succeeded', 'failed', 'skipped')),
  -- every attempt ever made (numbers the log); run_attempts counts those of the current run,
  -- which a replay starts afresh
  attempt_count   integer not null default 0,
  run_attempts    integer not null default 0,
  next_attempt_at timestamptz(3),
  locked_by       text,
  locked_until    timestamptz(3),
  last_error      text,
  created_at      timestamptz(3) not null,
  updated_at      timestamptz(3) not null,
  primary key (workspace_id, id),
  unique (workspace_id, event_id, endpoint_id)
);
-- the queue: what is due, and what is in flight, per endpoint (claims and per-endpoint limits)
create index webhook_deliveries_due_idx
  on webhook_deliveries (workspace_id, endpoint_id, next_attempt_at)
  where status in ('pending', 'retrying');
create index webhook_deliveries_lease_idx
  on webhook_deliveries (workspace_id, endpoint_id, locked_until)
  where status = 'in_flight';
create index webhook_deliveries_endpoint_idx
  on webhook_deliveries (workspace_id, endpoint_id, created_at desc, id desc);

create table webhook_attempts (
  workspace_id     text not null references workspaces (id),
  delivery_id      text not null,
  attempt          integer not null,
  trigger          text not null check (trigger in ('auto', 'replay')),
  started_at       timestamptz(3) not null,
  duration_ms      integer not null,
  url              text not null,
  -- the exact request sent: headers (never a secret; signatures only) and body bytes
  request_headers  jsonb not null,
  request_body     text not null,
  response_status  integer,
  response_body    text,
  error_kind       text,
  primary key (workspace_id, delivery_id, attempt)
);
create index webhook_attempts_started_idx on webhook_attempts (started_at);

-- Wakes dispatchers in other processes when events commit (NOTIFY is delivered at commit), so a
-- delivery starts at once instead of at the next poll. One notification per statement.
create function workgraph_outbox_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('workgraph_outbox', '');
  return null;
end $$;
create trigger events_notify after insert on events
  for each statement execute function workgraph_outbox_notify();
`)
    .execute(db)
}
