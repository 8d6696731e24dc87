import { type RawBuilder, sql } from 'kysely'
import type { QueryTerm } from './question-parser.ts'

/*
 * The tsquery pieces of a parsed question. Every text is read by both dictionaries: English stems
 * ("tasks" finds "task") or the words as written (names, other languages). websearch_to_tsquery
 * accepts any input, so nothing a person types can make a statement fail.
 */

/** Text as both dictionaries read it; a quoted text is a phrase. */
export function textQuery(text: string): RawBuilder<string> {
  return sql<string>`(websearch_to_tsquery('english', ${text}) || websearch_to_tsquery('simple', ${text}))`
}

/** What covers one term: any of its alternatives, or its prefix. */
export function termQuery(term: QueryTerm): RawBuilder<string> {
  const parts = term.alternatives.map(textQuery)
  // The prefix holds letters and digits only (the parser checks), so it is a valid lexeme.
  if (term.prefix) parts.push(sql<string>`to_tsquery('simple', ${`${term.prefix}:*`})`)
  return sql<string>`(${sql.join(parts, sql` || `)})`
}

/**
 * The same query matching title words only (weight A, as the index weighs titles): each lexeme
 * of its text form gets `:A` (`'redes':*` becomes `'redes':*A`). Every function in it is
 * immutable, so the planner computes it once; `ts_filter` on each candidate's vector instead
 * was a sizeable part of ranking a question's candidates (bench/HISTORY.md, "1,000,000 items").
 */
export function titleOnly(query: RawBuilder<string>): RawBuilder<string> {
  return sql<string>`regexp_replace((${query})::text, '(''(?:[^'']|'''')*'')(?::(\\*))?', '\\1:\\2A', 'g')::tsquery`
}

/** Every term (`and`) or any term (`or`); null without terms. */
export function combined(terms: readonly QueryTerm[], op: 'and' | 'or'): RawBuilder<string> | null {
  if (terms.length === 0) return null
  return sql<string>`(${sql.join(terms.map(termQuery), op === 'and' ? sql` && ` : sql` || `)})`
}

/**
 * User text made safe to hand to Postgres: NUL bytes are not allowed in text values, and control
 * characters mean nothing to full-text search. Everything else is for the parser to read.
 */
export function normalizeQuery(query: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return query.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
}
