import { PGlite } from '@electric-sql/pglite'

/**
 * PGlite's start parameters with a smaller buffer cache. PGlite touches all of shared_buffers at
 * start and its WASM heap never shrinks, so PostgreSQL's default cache stays resident however
 * small the workspace; a smaller one saves memory at every size (bench/HISTORY.md, "Memory").
 * Pages that miss it are still in the operating system's file cache.
 */
export const EMBEDDED_START_PARAMS: string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=32MB',
]
