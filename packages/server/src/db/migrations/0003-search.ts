import { type Kysely, sql } from 'kysely'

/**
 * Search over activity and the candidate window of very common terms. An activity entry's own
 * text is its verb and the values it changed, never its subject's title: a title match belongs to
 * the subject. `ref_ids` gets an index for activity filtered by resource.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table activity add column search_text text not null default '';
alter table activity add column tsv tsvector generated always as (
  to_tsvector('english', search_text) || to_tsvector('simple', search_text)
) stored;
create index activity_tsv_idx on activity using gin (tsv);
create index activity_refs_idx on activity using gin (ref_ids);
-- search ranks the most recent matches of a very common term; this walks them newest first
create index resource_index_recent_idx on resource_index (workspace_id, updated_at desc, id desc);
`)
    .execute(db)
}
