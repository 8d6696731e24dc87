/**
 * An import's progress as its database session names itself (`application_name`), so that any
 * server on the same PostgreSQL reads it from `pg_stat_activity` while the import's transaction is
 * still open (docs/operations.md, "Metrics"): `workgraph import 1200/50000` is 1,200 rows of 50,000.
 */
export const IMPORT_SESSION_PREFIX = 'workgraph import '

/** The session name of an import that has written `done` of `total` rows. */
export function importSessionName(done: number, total: number): string {
  return `${IMPORT_SESSION_PREFIX}${done}/${total}`
}

/** The rows written and to write of an import's session name; undefined for any other name. */
export function importProgressOf(name: string): { done: number; total: number } | undefined {
  const match = /^workgraph import (\d+)\/(\d+)$/.exec(name)
  return match ? { done: Number(match[1]), total: Number(match[2]) } : undefined
}
