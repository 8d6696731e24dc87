import { type Kysely, sql } from 'kysely'

/**
 * Positions of the change feed (docs/changes.md). Each activity entry gets a position, unique
 * and gapless per workspace, taken from `change_positions` by the last statement of the write
 * that records it (null until then, so never null once committed). The counter's row stays
 * locked until that transaction commits, so positions follow commit order: a reader that sees
 * position n sees every position below it. Existing entries are numbered in the order they
 * were made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create table change_positions (
  workspace_id text primary key references workspaces (id),
  -- the last position given out (and committed, as the row is locked until commit)
  last         bigint not null
);
alter table activity add column position bigint;
update activity a set position = numbered.position
from (
  select workspace_id, id,
    row_number() over (partition by workspace_id order by created_at, id) as position
  from activity
) numbered
where a.workspace_id = numbered.workspace_id and a.id = numbered.id;
insert into change_positions (workspace_id, last)
  select workspace_id, max(position) from activity group by workspace_id;
create unique index activity_position_key on activity (workspace_id, position);
-- the retention horizon: the last change made before a moment, in one probe
create index activity_horizon_idx on activity (workspace_id, created_at, position);
`)
    .execute(db)
}
