import { type RawBuilder, sql } from 'kysely'

/**
 * The text query as both dictionaries read it: English stems ("tasks" finds "task") or the words
 * as written (names, other languages, stop words). websearch_to_tsquery accepts any input:
 * "quoted phrases", -excluded words and `or` work, and nonsense parses to an empty query.
 */
export function tsquery(text: string): RawBuilder<string> {
  return sql<string>`(websearch_to_tsquery('english', ${text}) || websearch_to_tsquery('simple', ${text}))`
}

/**
 * User text made safe to hand to Postgres: NUL bytes are not allowed in text values, and control
 * characters mean nothing to full-text search. Everything else is for Postgres to parse.
 */
export function normalizeQuery(query: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return query.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
}
