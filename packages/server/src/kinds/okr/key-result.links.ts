import { sql } from 'kysely'
import type { LinkEdges } from '../../graph/links/link-edges.ts'

/** The neighbours of a key result, as `(rel, rank, id)` rows. */
export const keyResultLinks: LinkEdges = (ws, id) =>
  sql`select 'okr' as rel, 1 as rank, objective_id as id from key_results where workspace_id = ${ws} and id = ${id}`
