import { type Kysely, sql } from 'kysely'

/**
 * A second ACL index whose entries carry the row's type (`task:prj_…`). A guest's list of one
 * type then finds exactly its rows of that type in one lookup. With the plain ACL index it found
 * every row the guest may open, of every type, and the planner preferred to AND that with a
 * bitmap of every row of the type: about 2 ms at 100,000 items for 47 canvases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create function typed_acl(type text, acl text[]) returns text[]
  language sql immutable parallel safe
  as $$ select array(select type || ':' || token from unnest(acl) as token) $$;
create index resource_index_typed_acl_idx on resource_index using gin (typed_acl(type, acl));
`)
    .execute(db)
}
