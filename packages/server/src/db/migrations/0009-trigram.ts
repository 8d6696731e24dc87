import { type Kysely, sql } from 'kysely'

/**
 * Typo tolerance for search (docs/api.md, "Search"): pg_trgm and a trigram index on the titles of
 * the resource index (project names are their titles), so a misspelled word still finds the
 * titles it nearly spells. Embedded databases load the extension's code in db/connect.ts.
 * Without GIN's pending list, as for the ACL indexes: PGlite never vacuums it away.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create extension if not exists pg_trgm;
create index resource_index_title_trgm_idx on resource_index using gin (title gin_trgm_ops)
  with (fastupdate = off);
`)
    .execute(db)
}
