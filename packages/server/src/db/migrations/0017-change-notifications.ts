import { type Kysely, sql } from 'kysely'

/**
 * Long polls of the change feed wake at the commit of what they wait for (docs/changes.md, "Long
 * polling"): every statement that records activity notifies `workgraph_changes` once per
 * workspace it wrote in, with the workspace's id as payload. PostgreSQL delivers notifications at
 * commit, to every process listening, and folds repeats within a transaction into one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create function workgraph_changes_notify() returns trigger language plpgsql as $$
declare
  ws text;
begin
  for ws in select distinct workspace_id from recorded loop
    perform pg_notify('workgraph_changes', ws);
  end loop;
  return null;
end $$;
create trigger activity_notify after insert on activity
  referencing new table as recorded
  for each statement execute function workgraph_changes_notify();
`)
    .execute(db)
}
