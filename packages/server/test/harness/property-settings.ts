/**
 * Runs of the property tests. More: `WORKGRAPH_PROPERTY_RUNS=200 npm test -- <file>`. Shrinking a
 * database-backed counterexample takes minutes, so the first one found is reported as it is
 * unless `WORKGRAPH_PROPERTY_SHRINK=1`.
 */
export const PROPERTY_RUNS = Number(process.env.WORKGRAPH_PROPERTY_RUNS ?? 12)

/** fast-check parameters shared by the property tests. */
export const PROPERTY_SETTINGS = { endOnFailure: !process.env.WORKGRAPH_PROPERTY_SHRINK }
