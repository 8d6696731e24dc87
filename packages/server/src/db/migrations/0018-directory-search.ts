import { type Kysely, sql } from 'kysely'

/**
 * People and teams are found by search (docs/api.md, "Search"): each gets its searchable text as
 * a stored column with a GIN index, as content has in `resource_index`, so a search reads the
 * few that match instead of composing the text of every person at every query. A person's name
 * weighs as a title, their role as text; a team's name as a title, with the word "team".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table people add column tsv tsvector generated always as (
  setweight(to_tsvector('simple', name), 'A') || to_tsvector('simple', role)) stored;
create index people_tsv_idx on people using gin (tsv);
alter table teams add column tsv tsvector generated always as (
  setweight(to_tsvector('english', name) || to_tsvector('simple', name), 'A')
  || to_tsvector('simple', 'team')) stored;
create index teams_tsv_idx on teams using gin (tsv);
`)
    .execute(db)
}
