import { type Kysely, sql } from 'kysely'

/**
 * Typo tolerance through a vocabulary (docs/api.md, "Search"): every word of every title, with a
 * trigram index, so a misspelled word is compared with the few hundred thousand distinct words of
 * a workspace instead of with every title. The trigram index on titles is dropped: nothing reads
 * it any more, and every write paid for it. No unique key: two writers adding the same new word
 * never wait for each other, and a word stored twice only repeats in a lookup that dedupes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create table title_words (
  workspace_id text not null references workspaces (id) on delete cascade,
  word text not null
);
create index title_words_word_idx on title_words (workspace_id, word);
create index title_words_trgm_idx on title_words using gin (word gin_trgm_ops)
  with (fastupdate = off);
insert into title_words (workspace_id, word)
  select distinct r.workspace_id, w.word
  from resource_index r, unnest(tsvector_to_array(to_tsvector('simple', r.title))) as w(word)
  where length(w.word) >= 4;
drop index resource_index_title_trgm_idx;
`)
    .execute(db)
}
