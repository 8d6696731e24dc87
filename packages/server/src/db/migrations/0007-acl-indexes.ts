import { type Kysely, sql } from 'kysely'

/**
 * The ACL indexes, tuned for the permission path:
 * - A second ACL index whose entries carry the row's type (`task:prj_…`). A guest's list of one
 *   type then finds exactly its rows of that type in one lookup. With the plain ACL index it
 *   found every row the guest may open, of every type, and the planner preferred to AND that with
 *   a bitmap of every row of the type, reading far more than it returned.
 * - Both without GIN's pending list (`fastupdate`). New entries waited there, unsorted, until a
 *   vacuum (PGlite never runs one), and every lookup read the whole list, so a guest's task list
 *   slowed with every task created. A row has two or three ACL entries, so inserting
 *   them straight into the index costs writes little.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create function typed_acl(type text, acl text[]) returns text[]
  language sql immutable parallel safe
  as $$ select array(select type || ':' || token from unnest(acl) as token) $$;
create index resource_index_typed_acl_idx on resource_index using gin (typed_acl(type, acl))
  with (fastupdate = off);
alter index resource_index_acl_idx set (fastupdate = off);
select gin_clean_pending_list('resource_index_acl_idx');
`)
    .execute(db)
}
