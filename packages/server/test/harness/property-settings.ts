import { ENGINE } from './test-database.ts'

/**
 * Runs of the property tests: 12 random workspaces on PostgreSQL, 6 on PGlite. The rules under
 * test are the same SQL on both engines, which are the same PostgreSQL; the embedded one runs
 * each workspace much slower, so it checks that it agrees on fewer of them and leaves the
 * breadth to the faster engine (docs/permissions.md, "How it is tested").
 * More: `WORKGRAPH_PROPERTY_RUNS=200 npm test -- <file>`. Shrinking a database-backed
 * counterexample is slow, so the first one found is reported as it is unless
 * `WORKGRAPH_PROPERTY_SHRINK=1`.
 */
export const PROPERTY_RUNS = Number(
  process.env.WORKGRAPH_PROPERTY_RUNS ?? (ENGINE === 'pglite' ? 6 : 12),
)

/** fast-check parameters shared by the property tests. */
export const PROPERTY_SETTINGS = { endOnFailure: !process.env.WORKGRAPH_PROPERTY_SHRINK }

/**
 * How many of a fuzz test's `runs` inputs this engine sends: all of them on PostgreSQL, a third
 * on PGlite, for the reason above. Fuzz tests have fixed seeds, so PGlite sends the first third
 * of the very inputs PostgreSQL sends.
 */
export function fuzzRuns(runs: number): number {
  return ENGINE === 'pglite' ? Math.ceil(runs / 3) : runs
}
